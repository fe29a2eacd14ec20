/**
 * CertificateSigningRequest rules of upstream pkg/registry/certificates/certificates/strategy.go:
 * create clears the status (no pre-approved requests; the requesting user is filled in by the
 * admission step in groups/certificates-registration.admission.ts, as upstream's PrepareForCreate
 * does from the request's user); an update of the object changes neither spec nor status; `/status`
 * writes the status except the Approved/Denied conditions (kept as stored); `/approval` writes
 * only the conditions. Conditions get lastUpdateTime and lastTransitionTime when missing
 * (populateConditionTimestamps). A request through v1beta1 is validated with 1.21's tolerance.
 */
import { rfc3339 } from '../../api/object.js';
import { invalid } from '../../errors/api-error.js';
import type { Strategy, SubresourceDefinition } from '../../registry/types.js';
import { mergeMetaForSubresource } from '../define.js';
import type { CertificateSigningRequest, CsrCondition } from './csr.schema.js';
import { csrOptions, validateCsr, validateCsrUpdate } from './csr.validation.js';

type Csr = CertificateSigningRequest;

const now = () => rfc3339();

/** populateConditionTimestamps. */
function withTimestamps(conditions: readonly CsrCondition[], old: Csr): CsrCondition[] {
  const at = now();
  return conditions.map((c) => {
    const out = { ...c };
    if (!out.lastUpdateTime) out.lastUpdateTime = at;
    if (!out.lastTransitionTime) {
      const same = (old.status?.conditions ?? []).find(
        (o) => o.type === c.type && o.status === c.status && o.lastTransitionTime,
      );
      out.lastTransitionTime = same?.lastTransitionTime ?? at;
    }
    return out;
  });
}

/** preserveConditionInstances of Approved and Denied: the stored ones when their count is unchanged. */
function keepApproval(conditions: CsrCondition[], old: Csr): CsrCondition[] {
  const out = [...conditions];
  for (const type of ['Approved', 'Denied']) {
    const oldOnes = (old.status?.conditions ?? []).filter((c) => c.type === type);
    const newIdx = out.flatMap((c, i) => (c.type === type ? [i] : []));
    if (oldOnes.length === newIdx.length) newIdx.forEach((i, k) => (out[i] = oldOnes[k]));
  }
  return out;
}

/** The strategy of one version's rows (`v1beta1`: requests through v1beta1). */
export function csrStrategy(v1beta1: boolean): Strategy<Csr> {
  return {
    prepareForCreate(obj) {
      obj.status = {};
    },
    prepareForUpdate(obj, old) {
      obj.spec = old.spec;
      if (old.status === undefined) delete obj.status;
      else obj.status = old.status;
    },
    validate: (obj) => validateCsr(obj, csrOptions(obj, null, v1beta1)),
    // Status and approval writes are checked by their subresource first; this is what holds for all writes.
    validateUpdate: (obj, old) =>
      validateCsrUpdate(obj, old, { ...csrOptions(obj, old, v1beta1), approval: true, certificate: true }),
  };
}

function checked(obj: Csr, old: Csr, errs: ReturnType<typeof validateCsrUpdate>): Csr {
  if (errs.length) throw invalid('CertificateSigningRequest', old.metadata.name ?? '', errs, 'certificates.k8s.io');
  return obj;
}

/** `/status` (csrStatusStrategy): the status, Approved and Denied conditions kept as stored. */
export function csrStatus(v1beta1: boolean): SubresourceDefinition<Csr> {
  return {
    name: 'status',
    kind: 'CertificateSigningRequest',
    verbs: ['get', 'patch', 'update'],
    merge(requested: Csr, old) {
      const status = { ...requested.status };
      if (status.conditions) status.conditions = withTimestamps(keepApproval(status.conditions, old), old);
      const obj: Csr = { ...old, metadata: mergeMetaForSubresource(requested, old), status };
      return checked(obj, old, validateCsrUpdate(obj, old, { ...csrOptions(obj, old, v1beta1), certificate: true }));
    },
  };
}

/** `/approval` (csrApprovalStrategy): only the conditions. */
export function csrApproval(v1beta1: boolean): SubresourceDefinition<Csr> {
  return {
    name: 'approval',
    kind: 'CertificateSigningRequest',
    verbs: ['get', 'patch', 'update'],
    merge(requested: Csr, old) {
      const conditions = withTimestamps(requested.status?.conditions ?? [], old);
      const status: Csr['status'] = { ...old.status, conditions };
      if (!conditions.length) delete status.conditions;
      const obj: Csr = { ...old, metadata: mergeMetaForSubresource(requested, old), status };
      return checked(obj, old, validateCsrUpdate(obj, old, { ...csrOptions(obj, old, v1beta1), approval: true }));
    },
  };
}
