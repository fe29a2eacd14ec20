/**
 * ReplicationController field rules as upstream 1.10 ValidateReplicationControllerSpec and
 * ValidatePodTemplateSpecForRC (pkg/apis/core/validation/validation.go), for create and
 * update alike (ValidateReplicationControllerUpdate runs the same spec rules).
 */
import type { ApiObject } from '../../api/object.js';
import { validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import { goStringMap, nonNegative } from '../../api/core/validation/strings.js';
import { readOnlyPersistentDisks } from '../../api/core/validation/volumes.js';
import { invalidValue, notSupported, required } from '../../api/validation/field-errors.js';
import type { FieldError } from '../../errors/api-error.js';

type Json = Record<string, any>;

/** Whether every selector pair is among `labels` (labels.Set(selector).AsSelector().Matches). */
const matches = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

/** ValidatePodTemplateSpecForRC: present, matching the selector, restartPolicy Always, no deadline. */
function templateForRc(template: unknown, selector: Record<string, string>, replicas: number, field: string): FieldError[] {
  if (!template || typeof template !== 'object') return [required(field)];
  const t = template as Json;
  const spec = (t.spec ?? {}) as Json;
  const labels = (t.metadata?.labels ?? {}) as Record<string, string>;
  const errs: FieldError[] = [];
  if (Object.keys(selector).length && !matches(selector, labels)) {
    errs.push({
      reason: 'FieldValueInvalid',
      field: `${field}.metadata.labels`,
      message: `Invalid value: ${goStringMap(t.metadata?.labels)}: \`selector\` does not match template \`labels\``,
    });
  }
  errs.push(...validatePodTemplateSpec(t, field));
  if (replicas > 1) errs.push(...readOnlyPersistentDisks(spec.volumes, `${field}.spec.volumes`));
  if (spec.restartPolicy !== 'Always') errs.push(notSupported(`${field}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(invalidValue(`${field}.spec.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must not be specified'));
  }
  return errs;
}

/** Upstream ValidateReplicationControllerSpec (the metadata rules are common: registry/metadata.ts). */
export function validateReplicationController(obj: ApiObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Json;
  const selector = (spec.selector ?? {}) as Record<string, string>;
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  return [
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...(Object.keys(selector).length ? [] : [required('spec.selector')]),
    ...nonNegative(replicas, 'spec.replicas'),
    ...templateForRc(spec.template, selector, replicas, 'spec.template'),
  ];
}
