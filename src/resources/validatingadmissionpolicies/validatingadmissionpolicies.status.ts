/**
 * The status of a ValidatingAdmissionPolicy (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation ValidateValidatingAdmissionPolicyStatusUpdate,
 * validateTypeChecking, validateExpressionWarning, validateFieldRef, and apimachinery's
 * metav1 ValidateConditions, 1.33) and its `/status` subresource (upstream's status strategy:
 * the stored metadata and spec with the requested status, checked by these rules alone).
 * A warning's fieldRef must parse as a JSONPath; where Go's parser would explain a failure,
 * ours words it its own way.
 */
import { JsonPathError, parseJsonPath } from '../../api/jsonpath.js';
import { validateMetaConditions } from '../../api/validation/conditions.js';
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { statusSubresource } from '../define.js';
import type { PolicyStatus, ValidatingAdmissionPolicy } from './validatingadmissionpolicies.schema.js';

/** validateFieldRef: non-empty and a JSONPath (with or without the leading dot, as Go's parser reads `spec.x`). */
function validateFieldRef(fieldRef: string, at: string): FieldError[] {
  const ref = fieldRef.trim();
  if (!ref) return [required(at)];
  const parses = (text: string) => {
    try {
      parseJsonPath(`{${text}}`);
      return undefined;
    } catch (err) {
      if (err instanceof JsonPathError) return err.message;
      throw err;
    }
  };
  const failure = parses(ref) && parses(`.${ref}`);
  return failure ? [invalidValue(at, ref, `invalid JSONPath: ${failure}`)] : [];
}

/** ValidateValidatingAdmissionPolicyStatusUpdate: the type-checking warnings and the conditions. */
export function validatePolicyStatus(policy: ValidatingAdmissionPolicy): FieldError[] {
  const status: PolicyStatus = policy.status ?? {};
  const errs: FieldError[] = [];
  (status.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    const at = `status.typeChecking.expressionWarnings[${i}]`;
    if (!w.warning) errs.push(required(`${at}.warning`));
    errs.push(...validateFieldRef(w.fieldRef, `${at}.fieldRef`));
  });
  return [...errs, ...validateMetaConditions(status.conditions, 'status.conditions')];
}

/** `/status`: writes only the status, keeps the generation, checked by {@link validatePolicyStatus}. */
export const policyStatusSubresource: SubresourceDefinition<ValidatingAdmissionPolicy> = {
  ...statusSubresource<ValidatingAdmissionPolicy>('ValidatingAdmissionPolicy'),
  validateUpdate: (updated) => validatePolicyStatus(updated),
};
