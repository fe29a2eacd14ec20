/**
 * The `NonStructuralSchema` condition of a CustomResourceDefinition, as upstream's
 * NonStructuralSchemaConditionController computes it (k8s.io/apiextensions-apiserver
 * pkg/controller/nonstructuralschema nonstructuralschema_controller.go calculateCondition,
 * 1.33). Only definitions made through v1beta1 (or stored before 1.15) can have it: v1 refuses
 * what it reports. The controller keeping it (setting it when this answers a condition,
 * removing it when undefined, once per generation) is the CRD controller's part.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { invalidValue } from '../../api/validation/field-errors.js';
import type { CrdCondition } from './conditions.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import { toStructural } from './structural.js';
import { errorText, validateStructural } from './structural-validation.js';

/** ErrorList.ToAggregate().Error(): one message as is, several deduplicated in `[a, b]`. */
function aggregate(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(errorText))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/**
 * calculateCondition: undefined when every schema of `crd` is structural and it prunes;
 * otherwise the condition to set: status True, reason `Violations` and the problems as the
 * message (`spec.preserveUnknownFields: Invalid value: true: must be false`,
 * `spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be
 * empty for specified object fields`), or status Unknown, reason `StructuralError`, when a
 * schema cannot be read as a structural one at all.
 */
export function nonStructuralSchemaCondition(
  crd: CustomResourceDefinition,
): Omit<CrdCondition, 'lastTransitionTime'> | undefined {
  const errs: FieldError[] = [];
  if (crd.spec.preserveUnknownFields) errs.push(invalidValue('spec.preserveUnknownFields', true, 'must be false'));
  for (const [i, v] of (crd.spec.versions ?? []).entries()) {
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) continue;
    const ss = toStructural(schema);
    if ('error' in ss)
      return {
        type: 'NonStructuralSchema',
        status: 'Unknown',
        reason: 'StructuralError',
        message: `failed to check validation schema for version ${v.name}: ${ss.error}`,
      };
    errs.push(...validateStructural(ss.structural, `spec.versions[${i}].schema.openAPIV3Schema`));
  }
  if (!errs.length) return undefined;
  return { type: 'NonStructuralSchema', status: 'True', reason: 'Violations', message: aggregate(errs) };
}
