/**
 * ResourceQuota rules of upstream 1.10 pkg/apis/core/validation (ValidateResourceQuota,
 * ValidateResourceQuotaSpec/Status, validateResourceQuotaScopes, ValidateResourceQuotaUpdate,
 * ValidateResourceQuotaStatusUpdate). Field paths as upstream: `spec.hard[pods]`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../../api/validation/field-errors.js';
import {
  goSlice,
  invalidGo,
  isStandardQuotaResourceName,
  validateQuotaResourceName,
  validateResourceQuantityValue,
} from '../../api/validation/resources.js';
import type { ResourceQuota } from './resourcequotas.schema.js';

type QuotaSpec = NonNullable<ResourceQuota['spec']>;
type QuotaStatus = NonNullable<ResourceQuota['status']>;

const SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort']);

/** Upstream helper.IsResourceQuotaScopeValidForResource (1.10). */
function scopeValidForResource(scope: string, resource: string): boolean {
  const podObject = ['pods'];
  const podCompute = ['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory'];
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
      return [...podObject, ...podCompute].includes(resource);
    case 'BestEffort':
      return podObject.includes(resource);
    default:
      return true;
  }
}

/** The hard/used map at `path`: every name a quota resource, every quantity valid for it. */
function validateQuotaMap(map: Record<string, unknown> | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(map ?? {})) {
    errs.push(...validateQuotaResourceName(k, `${path}[${k}]`));
    errs.push(...validateResourceQuantityValue(k, v, `${path}[${k}]`));
  }
  return errs;
}

/** Upstream validateResourceQuotaScopes: known scopes, valid for the hard resources, no conflicting pair. */
function validateScopes(spec: QuotaSpec): FieldError[] {
  const scopes = spec.scopes ?? [];
  if (!scopes.length) return [];
  const errs: FieldError[] = [];
  const path = 'spec.scopes';
  const shown = goSlice('core.ResourceQuotaScope', spec.scopes ?? undefined);
  const hard = Object.keys(spec.hard ?? {}).sort();
  for (const scope of scopes) {
    if (!SCOPES.has(scope)) errs.push(invalidGo(path, shown, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k))
        errs.push(invalidGo(path, shown, 'unsupported scope applied to resource'));
    }
  }
  const set = new Set(scopes);
  for (const [a, b] of [
    ['BestEffort', 'NotBestEffort'],
    ['Terminating', 'NotTerminating'],
  ]) {
    if (set.has(a!) && set.has(b!)) errs.push(invalidGo(path, shown, 'conflicting scopes'));
  }
  return errs;
}

/** Upstream ValidateResourceQuotaSpec. */
function validateSpec(spec: QuotaSpec): FieldError[] {
  return [...validateQuotaMap(spec.hard, 'spec.hard'), ...validateScopes(spec)];
}

/** Upstream ValidateResourceQuotaStatus. */
function validateStatus(status: QuotaStatus): FieldError[] {
  return [...validateQuotaMap(status.hard, 'status.hard'), ...validateQuotaMap(status.used, 'status.used')];
}

const specOf = (o: ResourceQuota): QuotaSpec => o.spec ?? {};
const statusOf = (o: ResourceQuota): QuotaStatus => o.status ?? {};

/** Upstream ValidateResourceQuota (create): spec and status. */
export function validateResourceQuota(obj: ResourceQuota): FieldError[] {
  return [...validateSpec(specOf(obj)), ...validateStatus(statusOf(obj))];
}

/**
 * Upstream ValidateResourceQuotaUpdate (spec valid, scopes unchanged as a set) for the main
 * resource, and ValidateResourceQuotaStatusUpdate for a /status write (the spec is then the
 * stored one, so only the status is checked).
 */
export function validateResourceQuotaUpdate(obj: ResourceQuota, old: ResourceQuota): FieldError[] {
  if (!isDeepStrictEqual(obj.status, old.status)) return validateStatus(statusOf(obj));
  const errs = validateSpec(specOf(obj));
  const next = new Set(specOf(obj).scopes ?? []);
  const prev = new Set(specOf(old).scopes ?? []);
  if (next.size !== prev.size || [...next].some((s) => !prev.has(s))) {
    errs.push(
      invalidGo(
        'spec.scopes',
        goSlice('core.ResourceQuotaScope', specOf(obj).scopes ?? undefined),
        'field is immutable',
      ),
    );
  }
  return errs;
}
