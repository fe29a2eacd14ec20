/**
 * Label selectors of the batch kinds: upstream apimachinery pkg/apis/meta/v1/validation
 * ValidateLabelSelector (1.33: requirement operators and values, keys qualified names, values
 * valid label values unless an old object already had invalid ones), whether a selector
 * matches a label set (metav1.LabelSelectorAsSelector), and Go's `%#v` of a LabelSelector, the
 * way upstream prints one as an invalid value.
 */
import { labelSelectorOf, matchesLabels, type LabelSelectorObject } from '../../api/label-selector.js';
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';

const SET_OPERATORS = ['In', 'NotIn'];
const EXISTS_OPERATORS = ['Exists', 'DoesNotExist'];

/** Upstream ValidateLabelSelector at `path`; `allowInvalidValues` for updates of selectors that already had some. */
export function validateLabelSelector(
  selector: LabelSelectorObject,
  path: string,
  allowInvalidValues = false,
): FieldError[] {
  const errs: FieldError[] = [];
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const operator = expr.operator ?? '';
    const values = expr.values ?? [];
    if (SET_OPERATORS.includes(operator)) {
      if (!values.length) errs.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (EXISTS_OPERATORS.includes(operator)) {
      if (values.length)
        errs.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalidValue(`${at}.operator`, operator, 'not a valid selector operator'));
    }
    for (const m of validateQualifiedName(expr.key ?? '')) errs.push(invalidValue(`${at}.key`, expr.key ?? '', m));
    if (!allowInvalidValues)
      values.forEach((v, j) => {
        for (const m of validateLabelValue(v)) errs.push(invalidValue(`${at}.values[${j}]`, v, m));
      });
  });
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    for (const m of validateQualifiedName(k)) errs.push(invalidValue(`${path}.matchLabels`, k, m));
    for (const m of validateLabelValue(v)) errs.push(invalidValue(`${path}.matchLabels`, v, m));
  }
  return errs;
}

/** Whether a selector has an expression value that is not a valid label value (LabelSelectorHasInvalidLabelValue). */
export function hasInvalidLabelValue(selector: LabelSelectorObject | null | undefined): boolean {
  return (selector?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validateLabelValue(v).length));
}

/**
 * Whether `selector` selects `labels`; undefined when the selector cannot be built (an unknown
 * operator or bad values: upstream's LabelSelectorAsSelector error, which skips the check).
 */
export function selectorMatches(
  selector: LabelSelectorObject,
  labels: Readonly<Record<string, string>> | null | undefined,
): boolean | undefined {
  try {
    const exprs = selector.matchExpressions ?? [];
    const bad = exprs.some((e) =>
      SET_OPERATORS.includes(e.operator ?? '')
        ? !(e.values ?? []).length
        : EXISTS_OPERATORS.includes(e.operator ?? '') && (e.values ?? []).length > 0,
    );
    if (bad) return undefined;
    return matchesLabels(labelSelectorOf(selector), labels);
  } catch {
    return undefined;
  }
}

const goQuote = (s: string) => JSON.stringify(s);

/** Go's `%#v` of a metav1.LabelSelector value (how field.Invalid prints a selector). */
export function goLabelSelector(selector: LabelSelectorObject | null | undefined): string {
  const labels = selector?.matchLabels;
  const ml = labels
    ? `map[string]string{${Object.keys(labels)
        .sort()
        .map((k) => `${goQuote(k)}:${goQuote(labels[k] ?? '')}`)
        .join(', ')}}`
    : 'map[string]string(nil)';
  const exprs = selector?.matchExpressions;
  const me = exprs
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map(
          (e) =>
            `v1.LabelSelectorRequirement{Key:${goQuote(e.key ?? '')}, Operator:${goQuote(e.operator ?? '')}, Values:${
              e.values ? `[]string{${e.values.map(goQuote).join(', ')}}` : '[]string(nil)'
            }}`,
        )
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`;
}

/** metav1.FormatLabelSelector: `a=b,c in (x,y)`, `<none>` for an empty selector, `<error>` when it cannot be built. */
export function formatLabelSelector(selector: LabelSelectorObject | null | undefined): string {
  if (!selector) return '<none>';
  const parts = Object.keys(selector.matchLabels ?? {})
    .sort()
    .map((k) => `${k}=${selector.matchLabels?.[k] ?? ''}`);
  for (const e of selector.matchExpressions ?? []) {
    const key = e.key ?? '';
    const values = [...(e.values ?? [])].sort().join(',');
    switch (e.operator) {
      case 'In':
        parts.push(`${key} in (${values})`);
        break;
      case 'NotIn':
        parts.push(`${key} notin (${values})`);
        break;
      case 'Exists':
        parts.push(key);
        break;
      case 'DoesNotExist':
        parts.push(`!${key}`);
        break;
      default:
        return '<error>';
    }
  }
  // labels.Selector.String sorts requirements by key.
  const sorted = parts.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  return sorted.length ? sorted.join(',') : '<none>';
}

const keyOf = (req: string) => req.replace(/^!/, '').split(/[= ]/)[0] ?? '';
