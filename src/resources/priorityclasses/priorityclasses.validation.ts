/**
 * PriorityClass rules of upstream pkg/apis/scheduling/validation/validation.go
 * (ValidatePriorityClass, ValidatePriorityClassUpdate), core ValidatePreemptionPolicy, and
 * pkg/apis/scheduling/v1/helpers.go (the system classes and IsKnownSystemPriorityClass).
 */
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { PREEMPTION_POLICIES, type PriorityClass } from './priorityclasses.schema.js';

/** scheduling.HighestUserDefinablePriority. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** scheduling.SystemCriticalPriority. */
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
export const SYSTEM_PREFIX = 'system-';

/** The system priority classes, created at start (upstream SystemPriorityClasses). */
export const SYSTEM_PRIORITY_CLASSES = [
  {
    name: 'system-node-critical',
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
] as const;

/** IsKnownSystemPriorityClass: '' when `name`, `value` and `globalDefault` are a system class's, else why not. */
function unknownSystemClass(name: string, value: number, globalDefault: boolean): string {
  const spc = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!spc) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${spc.name} PriorityClass must be ${spc.value}`;
  if (globalDefault) return `globalDefault of ${spc.name} PriorityClass must be false`;
  return '';
}

/** core ValidatePreemptionPolicy. */
export function validatePreemptionPolicy(policy: string, field: string): FieldError[] {
  if ((PREEMPTION_POLICIES as readonly string[]).includes(policy)) return [];
  return policy === '' ? [required(field)] : [notSupported(field, policy, PREEMPTION_POLICIES)];
}

/** ValidatePriorityClass (the metadata rules are common). */
export function validatePriorityClass(obj: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const value = obj.value ?? 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const why = unknownSystemClass(name, value, obj.globalDefault ?? false);
    if (why)
      errs.push(
        forbidden(
          'metadata.name',
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`,
        ),
      );
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(
      forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`),
    );
  }
  if (typeof obj.preemptionPolicy === 'string')
    errs.push(...validatePreemptionPolicy(obj.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}

/** ValidatePriorityClassUpdate: value and preemptionPolicy are immutable (name is metadata's). */
export function validatePriorityClassUpdate(obj: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if ((obj.value ?? 0) !== (old.value ?? 0)) errs.push(forbidden('value', 'may not be changed in an update.'));
  if ((obj.preemptionPolicy ?? null) !== (old.preemptionPolicy ?? null))
    errs.push(invalidValue('preemptionPolicy', obj.preemptionPolicy ?? null, 'field is immutable'));
  return errs;
}
