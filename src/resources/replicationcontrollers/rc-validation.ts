/**
 * ReplicationController field rules as upstream 1.10 ValidateReplicationControllerSpec and
 * ValidatePodTemplateSpecForRC (pkg/apis/core/validation/validation.go), for create and
 * update alike (ValidateReplicationControllerUpdate runs the same spec rules).
 */
import { validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import { goStringMap, nonNegative } from '../../api/core/validation/strings.js';
import { readOnlyPersistentDisks } from '../../api/core/validation/volumes.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import type { ReplicationController } from './replicationcontrollers.schema.js';

type RcSpec = NonNullable<ReplicationController['spec']>;
type PodSpec = NonNullable<NonNullable<RcSpec['template']>['spec']>;

/** Whether every selector pair is among `labels` (labels.Set(selector).AsSelector().Matches). */
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** ValidatePodTemplateSpecForRC: present, matching the selector, restartPolicy Always, no deadline. */
function templateForRc(
  template: RcSpec['template'],
  selector: Record<string, string>,
  replicas: number,
  field: string,
): FieldError[] {
  if (!template || typeof template !== 'object') return [required(field)];
  const spec: Partial<PodSpec> = template.spec ?? {};
  const labels = template.metadata?.labels ?? {};
  const errs: FieldError[] = [];
  if (Object.keys(selector).length && !matches(selector, labels)) {
    errs.push({
      reason: 'FieldValueInvalid',
      field: `${field}.metadata.labels`,
      message: `Invalid value: ${goStringMap(template.metadata?.labels)}: \`selector\` does not match template \`labels\``,
    });
  }
  errs.push(...validatePodTemplateSpec(template, field));
  if (replicas > 1) errs.push(...readOnlyPersistentDisks(spec.volumes, `${field}.spec.volumes`));
  if (spec.restartPolicy !== 'Always')
    errs.push(notSupported(`${field}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(invalidValue(`${field}.spec.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must not be specified'));
  }
  return errs;
}

/** Upstream ValidateReplicationControllerSpec (the metadata rules are common: registry/metadata.ts). */
export function validateReplicationController(obj: ReplicationController): FieldError[] {
  const spec: RcSpec = obj.spec ?? {};
  const selector = spec.selector ?? {};
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  return [
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...(Object.keys(selector).length ? [] : [required('spec.selector')]),
    ...nonNegative(replicas, 'spec.replicas'),
    ...templateForRc(spec.template, selector, replicas, 'spec.template'),
  ];
}
