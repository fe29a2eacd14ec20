/**
 * certificates.k8s.io/v1beta1 (and the spec's certificates.ck.io/v1beta1) over the v1 storage:
 * the same fields, so a conversion changes only the apiVersion; v1beta1's defaults
 * (pkg/apis/certificates/v1beta1/defaults.go) apply to what is written through it: usages
 * `digital signature` and `key encipherment`, the signerName from the request
 * (DefaultSignerNameFromSpec: a kubelet client or serving request gets its kubelet signer, any
 * other `kubernetes.io/legacy-unknown`) and a condition's status `True`.
 */
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import { parseCsr, type ParsedCsr } from './csr-parse.js';
import type { CertificateSigningRequest } from './csr.schema.js';
import { LEGACY_UNKNOWN_SIGNER } from './csr.validation.js';

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === new Set(b).size && b.every((x) => a.includes(x));

const isKubeletSubject = (csr: ParsedCsr) =>
  csr.organizations.length === 1 &&
  csr.organizations[0] === 'system:nodes' &&
  csr.commonName.startsWith('system:node:');

/** IsKubeletClientCSR. */
function isKubeletClient(csr: ParsedCsr, usages: readonly string[]): boolean {
  if (
    !isKubeletSubject(csr) ||
    csr.dnsNames.length ||
    csr.emailAddresses.length ||
    csr.ipAddresses.length ||
    csr.uris.length
  )
    return false;
  return (
    sameSet(usages, ['digital signature', 'key encipherment', 'client auth']) ||
    sameSet(usages, ['digital signature', 'client auth'])
  );
}

/** IsKubeletServingCSR. */
function isKubeletServing(csr: ParsedCsr, usages: readonly string[]): boolean {
  if (!isKubeletSubject(csr) || (!csr.dnsNames.length && !csr.ipAddresses.length)) return false;
  if (csr.emailAddresses.length || csr.uris.length) return false;
  return (
    sameSet(usages, ['digital signature', 'key encipherment', 'server auth']) ||
    sameSet(usages, ['digital signature', 'server auth'])
  );
}

/** DefaultSignerNameFromSpec. */
export function defaultSignerName(request: string, usages: readonly string[]): string {
  let csr: ParsedCsr;
  try {
    csr = parseCsr(Buffer.from(request, 'base64'));
  } catch {
    return LEGACY_UNKNOWN_SIGNER;
  }
  if (isKubeletClient(csr, usages)) return 'kubernetes.io/kube-apiserver-client-kubelet';
  if (isKubeletServing(csr, usages)) return 'kubernetes.io/kubelet-serving';
  return LEGACY_UNKNOWN_SIGNER;
}

/** v1beta1's SetDefaults_CertificateSigningRequestSpec and SetDefaults_CertificateSigningRequestCondition. */
function defaultsV1beta1(obj: ApiObject): void {
  const csr = obj as CertificateSigningRequest;
  if (csr.spec) {
    if (csr.spec.usages == null) csr.spec.usages = ['digital signature', 'key encipherment'];
    if (csr.spec.signerName == null) csr.spec.signerName = defaultSignerName(csr.spec.request ?? '', csr.spec.usages);
  }
  for (const c of csr.status?.conditions ?? []) if (!c.status) c.status = 'True';
}

/** The conversion of a v1beta1 row of `group` over the certificates.k8s.io/v1 storage. */
export function csrV1beta1Conversion(group: string): VersionConversion {
  return {
    defaults: defaultsV1beta1,
    toStorage: (obj) => ({ ...obj, apiVersion: 'certificates.k8s.io/v1' }),
    fromStorage: (obj) => ({ ...obj, apiVersion: `${group}/v1beta1` }),
  };
}
