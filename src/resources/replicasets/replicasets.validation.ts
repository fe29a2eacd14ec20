/**
 * ReplicaSet rules of upstream 1.10 pkg/apis/extensions/validation (ValidateReplicaSetSpec,
 * ValidateReplicaSetStatus, ValidateReplicaSetUpdate) and 1.10's replicaset strategy, on the
 * stored (apps/v1) form, plus today's rule for a field added since (status.terminatingReplicas
 * non-negative). 1.10's ValidateUpdate runs ValidateReplicaSet and then ValidateReplicaSetUpdate,
 * so an update reports each spec problem twice, as upstream's does.
 */
import { nonNegative } from '../../api/core/validation/strings.js';
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import { goLabelSelector, invalidPrinted, sameSelector } from '../apps-common/label-selector.js';
import { validateSelectorAndTemplate } from '../deployments/deployments.validation.js';
import type { ReplicaSet } from './replicasets.schema.js';

type Status = NonNullable<ReplicaSet['status']>;

/** Upstream ValidateReplicaSetSpec. */
function validateSpec(obj: ReplicaSet): FieldError[] {
  const spec = obj.spec ?? {};
  return [
    ...nonNegative(spec.replicas ?? 0, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'),
    ...validateSelectorAndTemplate(spec, 'spec'),
  ];
}

/** Upstream ValidateReplicaSetStatus (1.10), with today's terminatingReplicas. */
function validateStatus(status: Status): FieldError[] {
  const n = (v: number | null | undefined) => v ?? 0;
  const errs = [
    ...nonNegative(n(status.replicas), 'status.replicas'),
    ...nonNegative(n(status.fullyLabeledReplicas), 'status.fullyLabeledReplicas'),
    ...nonNegative(n(status.readyReplicas), 'status.readyReplicas'),
    ...nonNegative(n(status.availableReplicas), 'status.availableReplicas'),
    ...nonNegative(n(status.observedGeneration), 'status.observedGeneration'),
    ...nonNegative(status.terminatingReplicas, 'status.terminatingReplicas'),
  ];
  const msg = 'cannot be greater than status.replicas';
  const replicas = n(status.replicas);
  if (n(status.fullyLabeledReplicas) > replicas)
    errs.push(invalidValue('status.fullyLabeledReplicas', status.fullyLabeledReplicas, msg));
  if (n(status.readyReplicas) > replicas) errs.push(invalidValue('status.readyReplicas', status.readyReplicas, msg));
  if (n(status.availableReplicas) > replicas)
    errs.push(invalidValue('status.availableReplicas', status.availableReplicas, msg));
  if (n(status.availableReplicas) > n(status.readyReplicas))
    errs.push(
      invalidValue('status.availableReplicas', status.availableReplicas, 'cannot be greater than readyReplicas'),
    );
  return errs;
}

/** Upstream ValidateReplicaSet (the metadata rules are common: registry/metadata.ts). */
export const validateReplicaSet = (obj: ReplicaSet): FieldError[] => validateSpec(obj);

/**
 * 1.10's ValidateUpdate: ValidateReplicaSet, ValidateReplicaSetUpdate, and the selector's
 * immutability (`immutableSelector`: every version but extensions/v1beta1); for a `/status`
 * write, ValidateReplicaSetStatusUpdate (the main resource keeps the stored, valid, status).
 */
export function validateReplicaSetUpdate(obj: ReplicaSet, old: ReplicaSet, immutableSelector: boolean): FieldError[] {
  const errs = [...validateSpec(obj), ...validateSpec(obj)];
  if (immutableSelector && !sameSelector(obj.spec?.selector, old.spec?.selector))
    errs.push(invalidPrinted('spec.selector', goLabelSelector(obj.spec?.selector), 'field is immutable'));
  errs.push(...validateStatus(obj.status ?? {}));
  return errs;
}
