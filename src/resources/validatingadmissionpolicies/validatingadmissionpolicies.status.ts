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
import { labelName, regexError } from '../../api/core/validation/strings.js';
import { duplicate, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { statusSubresource } from '../define.js';
import type { PolicyStatus, ValidatingAdmissionPolicy } from './validatingadmissionpolicies.schema.js';

const STATUSES = ['False', 'True', 'Unknown'];
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);

const tooLong = (field: string, max: number): FieldError => ({
  reason: 'FieldValueTooLong',
  field,
  message: `Too long: may not be more than ${max} bytes`,
});

/** metav1 ValidateConditions. */
function validateConditions(conditions: PolicyStatus['conditions'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (seen.has(c.type)) errs.push(duplicate(`${at}.type`, c.type));
    seen.add(c.type);
    errs.push(...labelName(c.type, `${at}.type`));
    if (!STATUSES.includes(c.status)) errs.push(notSupported(`${at}.status`, c.status, STATUSES));
    if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0)
      errs.push(
        invalidValue(`${at}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'),
      );
    if (!c.lastTransitionTime) errs.push(required(`${at}.lastTransitionTime`, 'must be set'));
    const reason = c.reason ?? '';
    if (!reason) errs.push(required(`${at}.reason`, 'must be set'));
    else {
      if (!REASON_RE.test(reason))
        errs.push(
          invalidValue(
            `${at}.reason`,
            reason,
            regexError(
              "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
              REASON_FMT,
              'my_name',
              'MY_NAME',
              'MyName',
              'ReasonA,ReasonB',
              'ReasonA:ReasonB',
            ),
          ),
        );
      if (Buffer.byteLength(reason) > 1024) errs.push(tooLong(`${at}.reason`, 1024));
    }
    if (Buffer.byteLength(c.message ?? '') > 32 * 1024) errs.push(tooLong(`${at}.message`, 32 * 1024));
  });
  return errs;
}

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
  return [...errs, ...validateConditions(status.conditions, 'status.conditions')];
}

/** `/status`: writes only the status, keeps the generation, checked by {@link validatePolicyStatus}. */
export const policyStatusSubresource: SubresourceDefinition<ValidatingAdmissionPolicy> = {
  ...statusSubresource<ValidatingAdmissionPolicy>('ValidatingAdmissionPolicy'),
  validateUpdate: (updated) => validatePolicyStatus(updated),
};
