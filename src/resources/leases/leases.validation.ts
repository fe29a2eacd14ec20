/**
 * Lease rules of upstream pkg/apis/coordination/validation/validation.go (ValidateLeaseSpec,
 * ValidateCoordinatedLeaseStrategy), the same on create and update.
 */
import { validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, type FieldError } from '../../api/validation/field-errors.js';
import type { Lease } from './leases.schema.js';

const STRATEGIES = ['OldestEmulationVersion'];

/** ValidateCoordinatedLeaseStrategy: a Kubernetes-defined name, or a qualified name with a '/'. */
export function validateLeaseStrategy(strategy: string, field: string): FieldError[] {
  if (!strategy.includes('/')) return STRATEGIES.includes(strategy) ? [] : [notSupported(field, strategy, STRATEGIES)];
  return validateQualifiedName(strategy).map((m) => invalidValue(field, strategy, m));
}

/** ValidateLeaseSpec. */
export function validateLease(obj: Lease): FieldError[] {
  const spec = obj.spec ?? {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0)
    errs.push(invalidValue('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0)
    errs.push(invalidValue('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  // Upstream builds this path as fldPath.Child("strategy").Child("strategy").
  if (typeof spec.strategy === 'string') errs.push(...validateLeaseStrategy(spec.strategy, 'spec.strategy.strategy'));
  if (spec.preferredHolder && !spec.strategy)
    errs.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  return errs;
}
