/**
 * PersistentVolume rules upstream added or changed after 1.10, as 1.33 words them
 * (pkg/apis/core/validation ValidatePersistentVolumeSpec, validateVolumeNodeAffinity,
 * ValidateNodeSelector(Term/Requirement), ValidateNodeFieldSelectorRequirement,
 * ValidatePositiveQuantityValue, ValidatePersistentVolumeUpdate): rows PV33-* of
 * docs/validation/core-today.md.
 */
import { isDeepStrictEqual } from 'node:util';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { compareQuantities, formatQuantity, quantityOf, type Quantity } from '../../api/quantity.js';
import { fieldsOf, items } from '../../api/core/validation/strings.js';
import { nodeFieldSelectorRequirement, nodeSelectorRequirement } from '../../api/core/validation/scheduling.js';

export const RWOP = 'ReadWriteOncePod';
/** Upstream supportedAccessModes, sorted as sets.List prints them. */
export const ACCESS_MODES_TODAY = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', RWOP];

/** The access-mode rules shared by volumes and claims: supported, and ReadWriteOncePod alone. */
export function validateAccessModes(modes: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES_TODAY.includes(mode)) errs.push(notSupported(path, mode, ACCESS_MODES_TODAY));
    if (mode === RWOP) rwop = true;
    else if (ACCESS_MODES_TODAY.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** Upstream ValidatePositiveQuantityValue (the value printed as its String()). */
export function validatePositiveQuantity(q: Quantity, path: string): FieldError[] {
  return compareQuantities(q, quantityOf(0)) <= 0
    ? [invalidValue(path, formatQuantity(q), 'must be greater than zero')]
    : [];
}

/** Upstream validateVolumeNodeAffinity with ValidateNodeSelector: required terms, each requirement valid. */
export function validateVolumeNodeAffinity(affinity: unknown, path: string): FieldError[] {
  const required_ = fieldsOf(affinity).required;
  if (required_ === undefined || required_ === null)
    return [required(`${path}.required`, 'must specify required node constraints')];
  const termsPath = `${path}.required.nodeSelectorTerms`;
  const terms = items(fieldsOf(required_).nodeSelectorTerms);
  if (!terms.length) return [required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((term, i) => [
    ...items(term.matchExpressions).flatMap((rq, j) =>
      nodeSelectorRequirement(rq, `${termsPath}[${i}].matchExpressions[${j}]`, true),
    ),
    ...items(term.matchFields).flatMap((rq, j) =>
      nodeFieldSelectorRequirement(rq, `${termsPath}[${i}].matchFields[${j}]`),
    ),
  ]);
}

/** Go's `%#v` of a *string-kind pointer field as ValidateImmutableField prints it (`null` when nil). */
export function immutable(path: string, value: unknown, old: unknown): FieldError[] {
  const norm = (v: unknown) => (v === undefined ? null : v);
  return isDeepStrictEqual(norm(value), norm(old)) ? [] : [invalidValue(path, value ?? null, 'field is immutable')];
}

/** A short rendering of what changed, in place of go-cmp's diff upstream appends to some messages. */
export function diffOf(old: unknown, next: unknown): string {
  return `-${JSON.stringify(old ?? null)}\n+${JSON.stringify(next ?? null)}`;
}
