/**
 * metav1.LabelSelector as today's upstream declares, validates, matches and prints it
 * (k8s.io/apimachinery pkg/apis/meta/v1 types.go `+structType=atomic`, validation
 * ValidateLabelSelector with LabelSelectorValidationOptions, LabelSelectorAsSelector,
 * FormatLabelSelector). Shared by NetworkPolicy, PodDisruptionBudget and the eviction rules.
 */
import { atomic, list, obj, reqObj, reqStr, strList, strMap } from '../../api/core/schema-kit.js';
import { invalidEach, labelName, labels } from '../../api/core/validation/strings.js';
import { matchesLabels, labelSelectorOf, type LabelSelectorObject } from '../../api/label-selector.js';
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';

/** A LabelSelector field: owned whole by server-side apply, as upstream's `+structType=atomic`. */
export const labelSelectorSchema = atomic(
  obj({
    matchExpressions: list(
      reqObj({
        key: reqStr.describe('The label key that the selector applies to.'),
        operator: reqStr.describe("A key's relationship to a set of values: In, NotIn, Exists and DoesNotExist."),
        values: strList.describe(
          'String values: non-empty for In and NotIn, empty for Exists and DoesNotExist. Replaced whole by a strategic merge patch.',
        ),
      }),
    ).describe('A list of label selector requirements; they are ANDed.'),
    matchLabels: strMap.describe(
      'A map of {key,value} pairs; each is equivalent to a matchExpressions element whose key is key, operator In and values [value]. ANDed.',
    ),
  }),
);

export interface SelectorOptions {
  /** Upstream AllowInvalidLabelValueInSelector: an update keeps values its old object already had. */
  readonly allowInvalidLabelValue?: boolean;
}

/** Upstream ValidateLabelSelector (`sel` absent: nothing to check). */
export function validateLabelSelector(
  sel: LabelSelectorObject | null | undefined,
  field: string,
  opts: SelectorOptions = {},
): FieldError[] {
  if (!sel) return [];
  const errs = labels(sel.matchLabels, `${field}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((sr, i) => {
    const path = `${field}.matchExpressions[${i}]`;
    const values = sr.values ?? [];
    switch (sr.operator) {
      case 'In':
      case 'NotIn':
        if (!values.length)
          errs.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length)
          errs.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalidValue(`${path}.operator`, sr.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...labelName(sr.key ?? '', `${path}.key`));
    if (!opts.allowInvalidLabelValue)
      values.forEach((v, j) => errs.push(...invalidEach(`${path}.values[${j}]`, v, validateLabelValue(v))));
  });
  return errs;
}

/** Upstream LabelSelectorHasInvalidLabelValue: an expression value that is not a label value. */
export function hasInvalidLabelValue(sel: LabelSelectorObject | null | undefined): boolean {
  return (sel?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validateLabelValue(v).length > 0));
}

/**
 * Whether `sel` selects `podLabels` as upstream's eviction reads a PDB's selector
 * (LabelSelectorAsSelector, then `selector.Empty() || !Matches`): a nil or empty selector and
 * one LabelSelectorAsSelector refuses select nothing.
 */
export function selectsForEviction(
  sel: LabelSelectorObject | null | undefined,
  podLabels: Readonly<Record<string, string>> | null | undefined,
): boolean {
  if (!sel || asSelectorFails(sel)) return false;
  const reqs = labelSelectorOf(sel);
  return reqs.length > 0 && matchesLabels(reqs, podLabels);
}

/** Whether upstream LabelSelectorAsSelector refuses `sel` (labels.NewRequirement's checks). */
function asSelectorFails(sel: LabelSelectorObject): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {}))
    if (validateQualifiedName(k).length || validateLabelValue(v).length) return true;
  return (sel.matchExpressions ?? []).some((e) => {
    const values = e.values ?? [];
    if (validateQualifiedName(e.key ?? '').length || values.some((v) => validateLabelValue(v).length)) return true;
    if (e.operator === 'In' || e.operator === 'NotIn') return values.length === 0;
    if (e.operator === 'Exists' || e.operator === 'DoesNotExist') return values.length > 0;
    return true;
  });
}

/**
 * metav1.FormatLabelSelector: the selector in label-selector syntax, requirements sorted by
 * key (`app=web,tier in (a,b)`), `<none>` when it selects everything, `<error>` when invalid.
 */
export function formatLabelSelector(sel: LabelSelectorObject | null | undefined): string {
  if (!sel) return '<none>';
  if (asSelectorFails(sel)) return '<error>';
  const parts = labelSelectorOf(sel)
    .map((r) => ({ r, values: [...r.values].sort() }))
    .sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : 0))
    .map(({ r, values }) => {
      switch (r.operator) {
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.operator} (${values.join(',')})`;
        default:
          return `${r.key}=${values[0] ?? ''}`;
      }
    });
  return parts.length ? parts.join(',') : '<none>';
}
