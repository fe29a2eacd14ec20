/**
 * PodDisruptionBudget rules of today's upstream pkg/apis/policy/validation
 * (ValidatePodDisruptionBudget, ValidatePodDisruptionBudgetSpec,
 * ValidatePodDisruptionBudgetStatusUpdate), apps' ValidatePositiveIntOrPercent and
 * IsNotMoreThan100Percent, and apimachinery's ValidateConditions for status conditions.
 */
import { regexError } from '../../api/core/validation/strings.js';
import { validateMetaConditions } from '../../api/validation/conditions.js';
import { invalidValue, notSupported, type FieldError } from '../../api/validation/field-errors.js';
import { hasInvalidLabelValue, validateLabelSelector } from '../apps-common/label-selector.js';
import type { PodDisruptionBudget } from './poddisruptionbudgets.schema.js';

type Spec = NonNullable<PodDisruptionBudget['spec']>;
type Status = NonNullable<PodDisruptionBudget['status']>;
type IntOrString = Spec['minAvailable'];

const POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];
const PERCENT_FMT = '[0-9]+%';

/** An IntOrString as upstream's field errors print it (Go's %#v of the struct). */
function goIntOrString(v: number | string): string {
  return typeof v === 'number'
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
}

const invalidIntOrString = (field: string, v: number | string, detail: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${goIntOrString(v)}: ${detail}`,
});

/** apps ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
function intOrPercent(v: IntOrString, field: string): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'number') return v < 0 ? [invalidValue(field, v, 'must be greater than or equal to 0')] : [];
  if (!new RegExp(`^${PERCENT_FMT}$`).test(v))
    return [
      invalidIntOrString(
        field,
        v,
        regexError(
          "a valid percent string must be a numeric string followed by an ending '%'",
          PERCENT_FMT,
          '1%',
          '93%',
        ),
      ),
    ];
  return Number(v.slice(0, -1)) > 100 ? [invalidIntOrString(field, v, 'must not be greater than 100%')] : [];
}

/** The spec's fields in the order of upstream's PodDisruptionBudgetSpec struct. */
function inStructOrder(spec: Spec): Record<string, unknown> {
  const { minAvailable, selector, maxUnavailable, unhealthyPodEvictionPolicy } = spec;
  const ordered = { minAvailable, selector, maxUnavailable, unhealthyPodEvictionPolicy };
  return Object.fromEntries(Object.entries(ordered).filter(([, v]) => v !== undefined));
}

/** Upstream ValidatePodDisruptionBudgetSpec. */
function validateSpec(spec: Spec, allowInvalidLabelValue: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const set = (v: IntOrString) => v !== undefined && v !== null;
  if (set(spec.minAvailable) && set(spec.maxUnavailable))
    // Upstream prints the spec with %#v, pointers as addresses; here it is JSON, in its struct order.
    errs.push(invalidValue('spec', inStructOrder(spec), 'minAvailable and maxUnavailable cannot be both set'));
  errs.push(...intOrPercent(spec.minAvailable, 'spec.minAvailable'));
  errs.push(...intOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector', { allowInvalidLabelValue }));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === 'string' && !POLICIES.includes(policy))
    errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, POLICIES));
  return errs;
}

/** Upstream ValidatePodDisruptionBudget (the strategy's Validate). */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  return validateSpec(pdb.spec ?? {}, false);
}

/** The strategy's ValidateUpdate: the spec rules, keeping invalid selector values the old budget had. */
export function validatePodDisruptionBudgetUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldError[] {
  const oldSelector = old.spec?.selector;
  const allow = validateLabelSelector(oldSelector, 'spec.selector').length > 0 || hasInvalidLabelValue(oldSelector);
  return validateSpec(pdb.spec ?? {}, allow);
}

/**
 * Upstream ValidatePodDisruptionBudgetStatusUpdate: conditions, and for policy/v1 (not
 * policy/v1beta1, which keeps its older rules) non-negative counts.
 */
export function validatePodDisruptionBudgetStatus(status: Status | null | undefined, v1beta1: boolean): FieldError[] {
  const s: Status = status ?? {};
  const errs = validateMetaConditions(s.conditions, 'status.conditions');
  if (v1beta1) return errs;
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    const v = s[f];
    if (typeof v === 'number' && v < 0) errs.push(invalidValue(`status.${f}`, v, 'must be greater than or equal to 0'));
  }
  return errs;
}
