/**
 * What each built-in signer accepts (upstream 1.33 pkg/controller/certificates/signer/signer.go
 * getCSRVerificationFuncForSignerName and pkg/apis/certificates/helpers.go
 * ValidateKubeletServingCSR / ValidateKubeletClientCSR): a check answers null when the request
 * is for that signer and fits, or the message of the first rule it breaks, which the signer
 * writes as the `Failed` condition (reason `SignerValidationFailure`).
 */
import type { ParsedCsr } from '../../../resources/certificatesigningrequests/csr-parse.js';
import {
  goList,
  KUBE_APISERVER_CLIENT,
  KUBE_APISERVER_CLIENT_KUBELET,
  KUBELET_SERVING,
  LEGACY_UNKNOWN,
} from '../csr-conditions.js';

/** A signer's check of a parsed request and its usages: null when it fits, else why not. */
export type SignerCheck = (req: ParsedCsr, usages: ReadonlySet<string>) => string | null;

const ORGANIZATION_NOT_SYSTEM_NODES = 'subject organization is not system:nodes';
const COMMON_NAME_NOT_SYSTEM_NODE = 'subject common name does not begin with system:node:';

const sameSet = (a: ReadonlySet<string>, b: readonly string[]) => a.size === b.length && b.every((u) => a.has(u));
/** sets.String.List(): sorted. */
const sorted = (usages: readonly string[]) => [...usages].sort();

const SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];
const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const CLIENT_USAGES_NO_RSA = ['digital signature', 'client auth'];

const onlySystemNodes = (req: ParsedCsr) => req.organizations.length === 1 && req.organizations[0] === 'system:nodes';

/** ValidateKubeletServingCSR. */
export function validateKubeletServing(req: ParsedCsr, usages: ReadonlySet<string>): string | null {
  if (!onlySystemNodes(req)) return ORGANIZATION_NOT_SYSTEM_NODES;
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, SERVING_USAGES) && !sameSet(usages, SERVING_USAGES_NO_RSA))
    return `usages did not match ${goList(sorted(SERVING_USAGES))}`;
  if (!req.commonName.startsWith('system:node:')) return COMMON_NAME_NOT_SYSTEM_NODE;
  return null;
}

/** ValidateKubeletClientCSR. */
export function validateKubeletClient(req: ParsedCsr, usages: ReadonlySet<string>): string | null {
  if (!onlySystemNodes(req)) return ORGANIZATION_NOT_SYSTEM_NODES;
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return COMMON_NAME_NOT_SYSTEM_NODE;
  if (!sameSet(usages, CLIENT_USAGES) && !sameSet(usages, CLIENT_USAGES_NO_RSA))
    return `usages did not match ${goList(sorted(CLIENT_USAGES))}`;
  return null;
}

/** validAPIServerClientUsages: client auth required; digital signature and key encipherment allowed. */
export function validateApiServerClient(_req: ParsedCsr, usages: ReadonlySet<string>): string | null {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? null : 'missing required usage for client certificate: client auth';
}

/** isLegacyUnknown: no restrictions, for v1beta1's backward compatibility. */
export const acceptAnything: SignerCheck = () => null;

/**
 * The check of `signerName` (getCSRVerificationFuncForSignerName). Throws Error
 * `unrecognized signerName: "<name>"` for any other signer, as upstream's constructor fails.
 */
export function checkForSigner(signerName: string): SignerCheck {
  switch (signerName) {
    case KUBELET_SERVING:
      return validateKubeletServing;
    case KUBE_APISERVER_CLIENT_KUBELET:
      return validateKubeletClient;
    case KUBE_APISERVER_CLIENT:
      return validateApiServerClient;
    case LEGACY_UNKNOWN:
      return acceptAnything;
    default:
      throw new Error(`unrecognized signerName: ${JSON.stringify(signerName)}`);
  }
}
