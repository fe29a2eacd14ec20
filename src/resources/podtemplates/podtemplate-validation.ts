/**
 * PodTemplate field rules as upstream 1.10 ValidatePodTemplate / ValidatePodTemplateUpdate
 * (pkg/apis/core/validation/validation.go): the template at `template` is a valid pod template
 * spec, on create and on every update.
 */
import { validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import type { PodTemplate } from './podtemplates.schema.js';

/** Upstream ValidatePodTemplate without ValidateObjectMeta (registry/metadata.ts). */
export function validatePodTemplate(obj: PodTemplate): FieldError[] {
  return validatePodTemplateSpec(obj.template, 'template');
}
