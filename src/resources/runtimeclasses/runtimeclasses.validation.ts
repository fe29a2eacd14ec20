/**
 * RuntimeClass rules of upstream pkg/apis/node/validation/validation.go (ValidateRuntimeClass,
 * ValidateRuntimeClassUpdate): handler a DNS-1123 label and immutable, overhead as a
 * container's limits (ValidateResourceRequirements, reported under `overhead.limits[...]` as
 * upstream), scheduling's node selector as labels and its tolerations as a pod's.
 */
import { validateDns1123Label } from '../../api/names.js';
import { labels } from '../../api/core/validation/strings.js';
import { validateResources } from '../../api/core/validation/resources.js';
import { validateTolerations } from '../../api/core/validation/scheduling.js';
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import type { RuntimeClass } from './runtimeclasses.schema.js';

/** ValidateRuntimeClass. */
export function validateRuntimeClass(obj: RuntimeClass): FieldError[] {
  const handler = obj.handler ?? '';
  const errs = validateDns1123Label(handler).map((m) => invalidValue('handler', handler, m));
  if (obj.overhead) errs.push(...validateResources({ limits: obj.overhead.podFixed ?? {} }, 'overhead'));
  if (obj.scheduling) {
    if (obj.scheduling.nodeSelector) errs.push(...labels(obj.scheduling.nodeSelector, 'scheduling.nodeSelector'));
    errs.push(...validateTolerations(obj.scheduling.tolerations, 'scheduling.tolerations'));
  }
  return errs;
}

/** ValidateRuntimeClassUpdate: the handler is immutable. */
export function validateRuntimeClassUpdate(obj: RuntimeClass, old: RuntimeClass): FieldError[] {
  return (obj.handler ?? '') === (old.handler ?? '')
    ? []
    : [invalidValue('handler', obj.handler ?? '', 'field is immutable')];
}
