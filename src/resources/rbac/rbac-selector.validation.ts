/**
 * The label-selector rules a ClusterRole's aggregationRule.clusterRoleSelectors entries meet in
 * upstream 1.10 ValidateClusterRole: apimachinery pkg/apis/meta/v1/validation
 * ValidateLabelSelector, then a second error when metav1.LabelSelectorAsSelector (labels
 * NewRequirement) refuses the selector, which it also does for an expression value that is
 * not a valid label value.
 */
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import type { ClusterRoleSelector } from './rbac.schema.js';

type Expression = NonNullable<ClusterRoleSelector['matchExpressions']>[number];

const SET_OPERATORS = ['In', 'NotIn'];
const EXISTS_OPERATORS = ['Exists', 'DoesNotExist'];

/** Upstream ValidateLabelSelectorRequirement: values as the operator needs them, a known operator, a qualified-name key. */
function validateRequirement(expr: Expression, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = expr.operator ?? '';
  const values = expr.values ?? [];
  if (SET_OPERATORS.includes(operator)) {
    if (values.length === 0)
      errs.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (EXISTS_OPERATORS.includes(operator)) {
    if (values.length > 0)
      errs.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else {
    errs.push(invalidValue(`${path}.operator`, operator, 'not a valid selector operator'));
  }
  const key = expr.key ?? '';
  for (const m of validateQualifiedName(key)) errs.push(invalidValue(`${path}.key`, key, m));
  return errs;
}

/** Whether upstream LabelSelectorAsSelector fails on `selector` (every NewRequirement check). */
function asSelectorFails(selector: ClusterRoleSelector): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (validateQualifiedName(key).length || validateLabelValue(value).length) return true;
  }
  for (const expr of selector.matchExpressions ?? []) {
    const operator = expr.operator ?? '';
    const values = expr.values ?? [];
    if (validateQualifiedName(expr.key ?? '').length) return true;
    if (
      SET_OPERATORS.includes(operator) ? values.length === 0 : !EXISTS_OPERATORS.includes(operator) || values.length > 0
    )
      return true;
    if (values.some((v) => validateLabelValue(v).length)) return true;
  }
  return false;
}

/**
 * One clusterRoleSelector at `path` (`aggregationRule.clusterRoleSelectors[0]`): matchLabels
 * keys qualified names and values label values (reported at `<path>.matchLabels`), each
 * matchExpressions entry by ValidateLabelSelectorRequirement, then
 * `<path>: Invalid value: "null": invalid label selector.` when the selector cannot be built
 * (upstream reports the nil selector it got back).
 */
export function validateClusterRoleSelector(selector: ClusterRoleSelector, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    for (const m of validateQualifiedName(key)) errs.push(invalidValue(`${path}.matchLabels`, key, m));
    for (const m of validateLabelValue(value)) errs.push(invalidValue(`${path}.matchLabels`, value, m));
  }
  (selector.matchExpressions ?? []).forEach((expr, i) =>
    errs.push(...validateRequirement(expr, `${path}.matchExpressions[${i}]`)),
  );
  if (asSelectorFails(selector)) errs.push(invalidValue(path, null, 'invalid label selector.'));
  return errs;
}
