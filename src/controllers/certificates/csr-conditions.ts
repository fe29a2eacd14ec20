/**
 * What the certificate controllers read of a CertificateSigningRequest (upstream 1.33
 * pkg/controller/certificates/certificate_controller_utils.go, and the signer names of
 * k8s.io/api certificates/v1 and v1beta1): approval, a condition that holds, the request's
 * PEM and usages, and whether a certificate was issued.
 */
import type { CertificateSigningRequest } from '../../resources/certificatesigningrequests/csr.schema.js';

export type Csr = CertificateSigningRequest;

/** The signers kube-controller-manager signs for (capi.*SignerName, capiv1beta1.LegacyUnknownSignerName). */
export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
export const LEGACY_UNKNOWN = 'kubernetes.io/legacy-unknown';

/** The built-in signer names, in upstream's start order. */
export const BUILT_IN_SIGNERS = [
  KUBELET_SERVING,
  KUBE_APISERVER_CLIENT_KUBELET,
  KUBE_APISERVER_CLIENT,
  LEGACY_UNKNOWN,
] as const;
export type BuiltInSigner = (typeof BUILT_IN_SIGNERS)[number];

/** GetCertApprovalCondition: whether an Approved and a Denied condition are present (whatever their status). */
export function approvalOf(csr: Csr): { approved: boolean; denied: boolean } {
  const conditions = csr.status?.conditions ?? [];
  return {
    approved: conditions.some((c) => c.type === 'Approved'),
    denied: conditions.some((c) => c.type === 'Denied'),
  };
}

/** IsCertificateRequestApproved: Approved and not Denied. */
export function isApproved(csr: Csr): boolean {
  const { approved, denied } = approvalOf(csr);
  return approved && !denied;
}

/** HasTrueCondition: a condition of `type` whose status is True or empty. */
export function hasTrueCondition(csr: Csr, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && (!c.status || c.status === 'True'));
}

/** Whether a certificate was issued (`status.certificate` is not empty). */
export function isIssued(csr: Csr): boolean {
  return Boolean(csr.status?.certificate);
}

/** `spec.request` as bytes (the stored field is base64). */
export function requestBytes(csr: Csr): Buffer {
  return Buffer.from(csr.spec.request ?? '', 'base64');
}

/** `status.certificate` as bytes ('' when none). */
export function certificateBytes(csr: Csr): Buffer {
  return Buffer.from(csr.status?.certificate ?? '', 'base64');
}

/** The requested usages as a set (upstream usagesToSet). */
export function usageSet(csr: Csr): ReadonlySet<string> {
  return new Set(csr.spec.usages ?? []);
}

/** Go's `%v` of a string list: `[a b c]`. */
export const goList = (items: readonly string[]): string => `[${items.join(' ')}]`;
