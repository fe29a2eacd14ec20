/**
 * The kubelet client certificate approver (upstream 1.33 pkg/controller/certificates/approver/
 * sarapprove.go): a pending request for kube-apiserver-client-kubelet that is a kubelet client
 * certificate request (ValidateKubeletClientCSR) is approved when its requester may create
 * `certificatesigningrequests/selfnodeclient` (a node renewing its own certificate: the
 * requester is the request's CN) or `certificatesigningrequests/nodeclient` (any node's),
 * asked of the authorizer as a SubjectAccessReview for the requester would be. Approved means
 * the condition Approved, reason `AutoApproved`, written through `/approval`.
 */
import type { AccessRequest } from '../../../registry/access.js';
import { parseCsr, type ParsedCsr } from '../../../resources/certificatesigningrequests/csr-parse.js';
import { IgnorableError } from '../certificate-controller.js';
import {
  approvalOf,
  goList,
  isIssued,
  KUBE_APISERVER_CLIENT_KUBELET,
  requestBytes,
  usageSet,
  type Csr,
} from '../csr-conditions.js';
import { validateKubeletClient } from '../signer/signer-checks.js';

/** The resource attributes a recognizer asks about (authorization.k8s.io ResourceAttributes). */
export interface Permission {
  readonly group: string;
  readonly resource: string;
  readonly verb: string;
  readonly subresource: string;
}

/** A kind of request the approver knows, the permission that approves it and the message then. */
export interface CsrRecognizer {
  readonly recognize: (csr: Csr, req: ParsedCsr) => boolean;
  readonly permission: Permission;
  readonly successMessage: string;
}

/** What the approver needs: the authorizer's answer and the `/approval` write. */
export interface ApproverDeps {
  /** Whether the authorizer allows the request (a SubjectAccessReview's `status.allowed`). */
  authorize(req: AccessRequest): boolean | Promise<boolean>;
  updateApproval(csr: Csr): Promise<void>;
}

/** isNodeClientCert: for kube-apiserver-client-kubelet and a kubelet client request. */
export function isNodeClientCert(csr: Csr, req: ParsedCsr): boolean {
  if (csr.spec.signerName !== KUBE_APISERVER_CLIENT_KUBELET) return false;
  return validateKubeletClient(req, usageSet(csr)) === null;
}

/** isSelfNodeClientCert: a node client request made by the node it names. */
export function isSelfNodeClientCert(csr: Csr, req: ParsedCsr): boolean {
  if ((csr.spec.username ?? '') !== req.commonName) return false;
  return isNodeClientCert(csr, req);
}

const csrPermission = (subresource: string): Permission => ({
  group: 'certificates.k8s.io',
  resource: 'certificatesigningrequests',
  verb: 'create',
  subresource,
});

/** Upstream's recognizers, most specific first. */
export const RECOGNIZERS: readonly CsrRecognizer[] = [
  {
    recognize: isSelfNodeClientCert,
    permission: csrPermission('selfnodeclient'),
    successMessage: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  {
    recognize: isNodeClientCert,
    permission: csrPermission('nodeclient'),
    successMessage: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  },
];

/** The access review of `csr`'s requester for `permission` (upstream authorize's SubjectAccessReview). */
export function reviewOf(csr: Csr, permission: Permission): AccessRequest {
  return {
    user: {
      name: csr.spec.username ?? '',
      uid: csr.spec.uid ?? '',
      groups: csr.spec.groups ?? [],
      extra: csr.spec.extra ?? undefined,
    },
    verb: permission.verb,
    isResourceRequest: true,
    path: '',
    apiGroup: permission.group,
    apiVersion: '*',
    namespace: '',
    resource: permission.resource,
    subresource: permission.subresource,
    name: '',
  };
}

/**
 * Approve `csr` (a copy) when a recognizer knows it and its permission is allowed (sarApprover
 * handle). Throws Error `unable to parse csr "<name>": ...`, {@link IgnorableError} `recognized
 * csr "<name>" as [..] but subject access review was not approved`, and the write's error.
 */
export async function approve(
  csr: Csr,
  deps: ApproverDeps,
  recognizers: readonly CsrRecognizer[] = RECOGNIZERS,
): Promise<void> {
  if (isIssued(csr)) return;
  const { approved, denied } = approvalOf(csr);
  if (approved || denied) return;
  let req: ParsedCsr;
  try {
    req = parseCsr(requestBytes(csr));
  } catch (err) {
    throw new Error(`unable to parse csr ${JSON.stringify(csr.metadata.name ?? '')}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const tried: string[] = [];
  for (const r of recognizers) {
    if (!r.recognize(csr, req)) continue;
    tried.push(r.permission.subresource);
    if (await deps.authorize(reviewOf(csr, r.permission))) {
      const condition = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.successMessage };
      const conditions = [...(csr.status?.conditions ?? []), condition];
      await deps.updateApproval({ ...csr, status: { ...csr.status, conditions } }).catch((err: Error) => {
        throw new Error(`error updating approval for csr: ${err.message}`);
      });
      return;
    }
  }
  if (tried.length)
    throw new IgnorableError(
      `recognized csr ${JSON.stringify(csr.metadata.name ?? '')} as ${goList(tried)} but subject access review was not approved`,
    );
}
