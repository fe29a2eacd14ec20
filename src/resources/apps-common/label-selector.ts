/**
 * metav1.LabelSelector as the kinds carry it (`spec.selector` of Deployments, ReplicaSets,
 * StatefulSets, DaemonSets and PodDisruptionBudgets, NetworkPolicy's pod and namespace
 * selectors, webhooks' selectors; the eviction rules read budgets with it): its schema (`+structType=atomic`, as today's
 * k8s.io/apimachinery types.go), upstream's checks of it (apimachinery
 * pkg/apis/meta/v1/validation ValidateLabelSelector), its conversion to a selector
 * (metav1.LabelSelectorAsSelector with labels.NewRequirement's checks), that selector's string
 * (labels.Selector.String(), what a Scale's `status.selector` and `kubectl get -o wide` show) and
 * Go's `%#v` of it, which upstream's field errors print.
 */
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import type { LabelOperator, LabelRequirement } from '../../api/label-selector.js';
import { atomic, list, obj, reqObj, reqStr, strList, strMap } from '../../api/core/schema-kit.js';
import { invalidEach, labelName, labels } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';

/** metav1.LabelSelectorRequirement. */
const requirementSchema = reqObj({
  key: reqStr.describe('key is the label key that the selector applies to.'),
  operator: reqStr.describe(
    "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.",
  ),
  values: strList.describe(
    'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.',
  ),
});

/** metav1.LabelSelector, owned whole by server-side apply (`+structType=atomic`). */
export const labelSelectorSchema = atomic(
  obj({
    matchExpressions: list(requirementSchema).describe(
      'matchExpressions is a list of label selector requirements. The requirements are ANDed.',
    ),
    matchLabels: strMap.describe(
      'matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is "key", the operator is "In", and the values array contains only "value". The requirements are ANDed.',
    ),
  }),
);

/** A label selector as objects carry it. */
export interface SelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?:
    | readonly {
        readonly key?: string | null;
        readonly operator?: string | null;
        readonly values?: readonly string[] | null;
      }[]
    | null;
}

/** A nil selector (`null`/absent): upstream's labels.Nothing(), which matches no labels. */
export const NOTHING = 'nothing';

/** What LabelSelectorAsSelector gives: requirements (none: everything), or nothing for a nil selector. */
export type Selector = readonly LabelRequirement[] | typeof NOTHING;

/** Thrown by {@link asSelector} for a selector upstream cannot build (its message is upstream's). */
export class InvalidSelectorError extends Error {}

const SET_OPERATORS = ['In', 'NotIn'];
const EXISTS_OPERATORS = ['Exists', 'DoesNotExist'];
const OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/** Whether a selector has neither matchLabels nor matchExpressions. */
export const isEmptySelector = (sel: SelectorObject): boolean =>
  Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0;

/** labels.NewRequirement's checks: a qualified-name key, values as the operator needs them, label values. */
function requirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const keyErrors = validateQualifiedName(key);
  if (keyErrors.length) throw new InvalidSelectorError(`invalid label key "${key}": ${keyErrors.join('; ')}`);
  if ((operator === 'in' || operator === 'notin') && values.length === 0)
    throw new InvalidSelectorError("for 'in', 'notin' operators, values set can't be empty");
  if ((operator === 'exists' || operator === '!') && values.length > 0)
    throw new InvalidSelectorError('values set must be empty for exists and does not exist');
  for (const v of values) {
    const errs = validateLabelValue(v);
    if (errs.length)
      throw new InvalidSelectorError(`invalid label value: "${v}": at key: "${key}": ${errs.join('; ')}`);
  }
  return { key, operator, values: [...values].sort() };
}

/**
 * Upstream metav1.LabelSelectorAsSelector: {@link NOTHING} for a nil selector, no requirements
 * (everything) for an empty one, else one requirement per matchLabels pair and expression,
 * sorted by key as labels.Selector keeps them. Throws InvalidSelectorError where upstream fails.
 */
export function asSelector(sel: SelectorObject | null | undefined): Selector {
  if (!sel) return NOTHING;
  if (isEmptySelector(sel)) return [];
  const reqs: LabelRequirement[] = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => requirement(k, '=', [v]));
  for (const expr of sel.matchExpressions ?? []) {
    const name = expr.operator ?? '';
    const operator = OPERATORS[name];
    if (!operator) throw new InvalidSelectorError(`${JSON.stringify(name)} is not a valid pod selector operator`);
    reqs.push(requirement(expr.key ?? '', operator, expr.values ?? []));
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Whether `selector` selects `labels` (labels.Nothing() selects nothing; no requirements, everything). */
export function selects(selector: Selector, labelMap: Readonly<Record<string, string>> | null | undefined): boolean {
  if (selector === NOTHING) return false;
  const l = labelMap ?? {};
  return selector.every((r) => {
    const has = Object.hasOwn(l, r.key);
    switch (r.operator) {
      case '=':
      case '==':
      case 'in':
        return has && r.values.includes(l[r.key]);
      case '!=':
      case 'notin':
        return !has || !r.values.includes(l[r.key]);
      case 'exists':
        return has;
      case '!':
        return !has;
      default:
        return false;
    }
  });
}

/** labels.Selector.String(): `a=b,k in (x,y),!gone` ('' for everything and for nothing). */
export function selectorString(selector: Selector): string {
  if (selector === NOTHING) return '';
  return selector
    .map((r) => {
      switch (r.operator) {
        case 'in':
          return `${r.key} in (${r.values.join(',')})`;
        case 'notin':
          return `${r.key} notin (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        default:
          return `${r.key}${r.operator}${r.values[0] ?? ''}`;
      }
    })
    .join(',');
}

/** Go's `%#v` of a map[string]string (keys sorted; `(nil)` for an absent map). */
export function goStringMap(map: Readonly<Record<string, string>> | null | undefined): string {
  if (map === null || map === undefined) return 'map[string]string(nil)';
  const entries = Object.keys(map)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(map[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** Go's `%#v` of a []string. */
const goStrings = (values: readonly string[] | null | undefined): string =>
  values === null || values === undefined
    ? '[]string(nil)'
    : `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

/** Go's `%#v` of a metav1.LabelSelector, as upstream's field errors print a selector value. */
export function goLabelSelector(sel: SelectorObject | null | undefined): string {
  if (!sel) return 'null';
  const exprs = sel.matchExpressions;
  const goExprs =
    exprs === null || exprs === undefined
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${exprs
          .map(
            (e) =>
              `v1.LabelSelectorRequirement{Key:${JSON.stringify(e.key ?? '')}, Operator:${JSON.stringify(e.operator ?? '')}, Values:${goStrings(e.values)}}`,
          )
          .join(', ')}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${goExprs}}`;
}

/** A field error whose value is printed as Go's `%#v` (`printed`), as upstream prints structs. */
export function invalidPrinted(field: string, printed: string, detail: string): FieldError {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${printed}: ${detail}` };
}

/** Options of upstream's LabelSelectorValidationOptions. */
export interface SelectorOptions {
  /** Upstream AllowInvalidLabelValueInSelector: an update keeps values its old object already had. */
  readonly allowInvalidLabelValue?: boolean;
}

/**
 * Upstream ValidateLabelSelectorRequirement: values as the operator needs them, a known
 * operator, a qualified-name key, label values (unless the options allow invalid ones).
 */
function validateRequirement(
  expr: NonNullable<SelectorObject['matchExpressions']>[number],
  path: string,
  opts: SelectorOptions,
): FieldError[] {
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
  errs.push(...labelName(expr.key ?? '', `${path}.key`));
  if (!opts.allowInvalidLabelValue)
    values.forEach((v, j) => errs.push(...invalidEach(`${path}.values[${j}]`, v, validateLabelValue(v))));
  return errs;
}

/**
 * Upstream ValidateLabelSelector at `path` (`spec.selector`): matchLabels keys and values
 * (reported at `<path>.matchLabels`), each matchExpressions entry; nothing for a nil selector.
 */
export function validateLabelSelector(
  sel: SelectorObject | null | undefined,
  path: string,
  opts: SelectorOptions = {},
): FieldError[] {
  if (!sel) return [];
  return [
    ...labels(sel.matchLabels, `${path}.matchLabels`),
    ...(sel.matchExpressions ?? []).flatMap((expr, i) =>
      validateRequirement(expr, `${path}.matchExpressions[${i}]`, opts),
    ),
  ];
}

/** Upstream LabelSelectorHasInvalidLabelValue: an expression value that is not a label value. */
export function hasInvalidLabelValue(sel: SelectorObject | null | undefined): boolean {
  return (sel?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validateLabelValue(v).length > 0));
}

/** {@link asSelector}, or undefined where upstream's LabelSelectorAsSelector fails. */
function asSelectorOrUndefined(sel: SelectorObject | null | undefined): Selector | undefined {
  try {
    return asSelector(sel);
  } catch (err) {
    if (err instanceof InvalidSelectorError) return undefined;
    throw err;
  }
}

/**
 * Whether `sel` selects `podLabels` as upstream's eviction reads a PDB's selector
 * (LabelSelectorAsSelector, then `selector.Empty() || !Matches`): a nil or empty selector and
 * one LabelSelectorAsSelector refuses select nothing.
 */
export function selectsForEviction(
  sel: SelectorObject | null | undefined,
  podLabels: Readonly<Record<string, string>> | null | undefined,
): boolean {
  const selector = asSelectorOrUndefined(sel);
  return selector !== undefined && selector.length > 0 && selects(selector, podLabels);
}

/**
 * metav1.FormatLabelSelector: the selector's string (`app=web,tier in (a,b)`), `<none>` when
 * it is nil or selects everything, `<error>` when upstream cannot build it.
 */
export function formatLabelSelector(sel: SelectorObject | null | undefined): string {
  const selector = asSelectorOrUndefined(sel);
  return selector === undefined ? '<error>' : selectorString(selector) || '<none>';
}

/** apiequality.Semantic.DeepEqual of two selectors: nil and empty maps and lists are alike. */
export function sameSelector(a: SelectorObject | null | undefined, b: SelectorObject | null | undefined): boolean {
  if (!a || !b) return !a === !b;
  const norm = (s: SelectorObject) =>
    JSON.stringify({
      l: Object.entries(s.matchLabels ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
      e: (s.matchExpressions ?? []).map((e) => [e.key ?? '', e.operator ?? '', e.values ?? []]),
    });
  return norm(a) === norm(b);
}
