/**
 * ResourceQuota rules of upstream 1.33 pkg/apis/core/validation (ValidateResourceQuota,
 * ValidateResourceQuotaSpec/Status, validateResourceQuotaScopes, validateScopeSelector,
 * ValidateResourceQuotaUpdate, ValidateResourceQuotaStatusUpdate), with 1.33's default gates
 * (VolumeAttributesClass off: that scope is unsupported). Field paths as upstream:
 * `spec.hard[pods]`. Rows Q33-* of docs/validation/core-today.md.
 */
import { isDeepStrictEqual } from 'node:util';
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
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

const SCOPES = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
]);
/** Scopes a selector requirement may only use with operator Exists. */
const EXISTS_ONLY = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
]);
const CONFLICTS: [string, string][] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** Upstream helper.IsResourceQuotaScopeValidForResource (1.33). */
function scopeValidForResource(scope: string, resource: string): boolean {
  const podObject = ['pods'];
  const podCompute = ['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory'];
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
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
  for (const [a, b] of CONFLICTS) if (set.has(a) && set.has(b)) errs.push(invalidGo(path, shown, 'conflicting scopes'));
  return errs;
}

/** Go's `%#v` of a ScopeSelector (how "unsupported scope applied to resource" prints it). */
function goScopeSelector(spec: QuotaSpec): string {
  const reqs = (spec.scopeSelector?.matchExpressions ?? []).map(
    (r) =>
      `core.ScopedResourceSelectorRequirement{ScopeName:${JSON.stringify(r.scopeName)}, Operator:${JSON.stringify(r.operator)}, Values:${goStrings(r.values)}}`,
  );
  const list = reqs.length
    ? `[]core.ScopedResourceSelectorRequirement{${reqs.join(', ')}}`
    : '[]core.ScopedResourceSelectorRequirement(nil)';
  return `core.ScopeSelector{MatchExpressions:${list}}`;
}

const goStrings = (values: readonly string[] | null | undefined): string =>
  values?.length ? `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}` : '[]string(nil)';

/** Upstream validateScopeSelector / validateScopedResourceSelectorRequirement. */
function validateScopeSelector(spec: QuotaSpec): FieldError[] {
  if (!spec.scopeSelector) return [];
  const errs: FieldError[] = [];
  const path = 'spec.scopeSelector.matchExpressions';
  const hard = Object.keys(spec.hard ?? {}).sort();
  const set = new Set<string>();
  for (const req of spec.scopeSelector.matchExpressions ?? []) {
    const scope = req.scopeName;
    if (!SCOPES.has(scope)) errs.push(invalidValue(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k))
        errs.push(invalidGo(path, goScopeSelector(spec), 'unsupported scope applied to resource'));
    }
    if (EXISTS_ONLY.has(scope) && req.operator !== 'Exists') {
      errs.push(
        invalidValue(
          `${path}.operator`,
          req.operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    const values = req.values ?? [];
    if (req.operator === 'In' || req.operator === 'NotIn') {
      if (!values.length)
        errs.push(
          required(
            `${path}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
    } else if (req.operator === 'Exists' || req.operator === 'DoesNotExist') {
      if (values.length)
        errs.push(
          invalidGo(
            `${path}.values`,
            goStrings(values),
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else errs.push(invalidValue(`${path}.operator`, req.operator, 'not a valid selector operator'));
    set.add(scope);
  }
  for (const [a, b] of CONFLICTS)
    if (set.has(a) && set.has(b))
      errs.push(invalidGo(path, goSlice('core.ResourceQuotaScope', spec.scopes ?? undefined), 'conflicting scopes'));
  return errs;
}

/** Upstream ValidateResourceQuotaSpec. */
function validateSpec(spec: QuotaSpec): FieldError[] {
  return [...validateQuotaMap(spec.hard, 'spec.hard'), ...validateScopes(spec), ...validateScopeSelector(spec)];
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
