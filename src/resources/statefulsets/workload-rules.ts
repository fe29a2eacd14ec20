/**
 * Label-selector rules StatefulSets and DaemonSets follow as today's upstream checks them, on top
 * of the shared workload helpers (resources/apps-common): today's apimachinery
 * ValidateLabelSelectorRequirement also checks each expression value is a label value (unless
 * AllowInvalidLabelValueInSelector, which an update keeps when the stored selector already has
 * one), and upstream's strategies compare and print selectors and pointers as Go does.
 */
import { validateLabelValue } from '../../api/names.js';
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import {
  asSelector,
  goLabelSelector,
  InvalidSelectorError,
  NOTHING,
  validateLabelSelector as validateSelectorShape,
  type Selector,
  type SelectorObject,
} from '../apps-common/label-selector.js';

/**
 * Today's ValidateLabelSelector at `path`: apps-common's checks (matchLabels, operators, keys)
 * and, unless `allowInvalidValues`, each expression value a valid label value.
 */
export function validateLabelSelector(
  selector: SelectorObject | null | undefined,
  path: string,
  allowInvalidValues = false,
): FieldError[] {
  const errs = validateSelectorShape(selector, path);
  if (!allowInvalidValues)
    (selector?.matchExpressions ?? []).forEach((e, i) =>
      (e.values ?? []).forEach((v, j) => {
        for (const m of validateLabelValue(v))
          errs.push(invalidValue(`${path}.matchExpressions[${i}].values[${j}]`, v, m));
      }),
    );
  return errs;
}

/** Whether a selector has an expression value that is not a label value (upstream LabelSelectorHasInvalidLabelValue). */
export const hasInvalidLabelValue = (selector: SelectorObject | null | undefined): boolean =>
  (selector?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validateLabelValue(v).length > 0));

/** metav1.LabelSelectorAsSelector, or null where upstream fails to build the selector. */
export function selectorOrFailure(selector: SelectorObject | null | undefined): Selector | null {
  try {
    return asSelector(selector);
  } catch (err) {
    if (err instanceof InvalidSelectorError) return null;
    throw err;
  }
}

/** labels.Selector.Empty(): no requirement (labels.Nothing() of a nil selector is not empty). */
export const isEverything = (selector: Selector): boolean => selector !== NOTHING && selector.length === 0;

/** A (pointer) selector printed as upstream's field errors print it: `"null"` when nil. */
export const goSelectorValue = (selector: SelectorObject | null | undefined): string =>
  selector ? goLabelSelector(selector) : '"null"';

/** Go's `%#v` of a pointer field inside a printed struct: `(*T)(nil)`, or an address as upstream prints one. */
export const goPointer = (type: string, value: unknown): string =>
  value === undefined || value === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`;
