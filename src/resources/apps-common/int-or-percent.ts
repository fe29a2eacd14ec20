/**
 * The int-or-percent rules of rolling updates (upstream 1.10 pkg/apis/extensions/validation
 * ValidatePositiveIntOrPercent, getIntOrPercentValue, IsNotMoreThan100Percent), with values
 * printed as upstream's field errors print an internal intstr.IntOrString (Go's `%#v`:
 * `intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}`).
 */
import { regexError } from '../../api/core/validation/strings.js';
import { nonNegative } from '../../api/core/validation/strings.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import { invalidPrinted } from './label-selector.js';

/** intstr.IntOrString on the wire; absent is the zero value (the integer 0). */
export type IntOrPercent = number | string | null | undefined;

const PERCENT = /^[0-9]+%$/;

/** Go's `%#v` of the internal intstr.IntOrString `value`. */
export function goIntOrString(value: IntOrPercent): string {
  return typeof value === 'string'
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(value)}}`
    : `intstr.IntOrString{Type:0, IntVal:${value ?? 0}, StrVal:""}`;
}

/** validation.IsValidPercent's message. */
const PERCENT_MESSAGE = regexError(
  "a valid percent string must be a numeric string followed by an ending '%'",
  '[0-9]+%',
  '1%',
  '93%',
);

/** Upstream ValidatePositiveIntOrPercent: a percent string, or a non-negative integer. */
export function validatePositiveIntOrPercent(value: IntOrPercent, field: string): FieldError[] {
  if (typeof value === 'string')
    return PERCENT.test(value) ? [] : [invalidPrinted(field, goIntOrString(value), PERCENT_MESSAGE)];
  return nonNegative(value ?? 0, field);
}

/** Upstream getIntOrPercentValue: a percent's number, an integer, or a string's strconv.Atoi (0 when not a number). */
export function intOrPercentValue(value: IntOrPercent): number {
  if (typeof value !== 'string') return value ?? 0;
  if (PERCENT.test(value)) return Number(value.slice(0, -1));
  return /^[+-]?\d+$/.test(value) ? Number(value) : 0;
}

/** Upstream IsNotMoreThan100Percent: a percent above 100% is refused; integers are not checked. */
export function notMoreThan100Percent(value: IntOrPercent, field: string): FieldError[] {
  if (typeof value !== 'string' || !PERCENT.test(value) || Number(value.slice(0, -1)) <= 100) return [];
  return [invalidPrinted(field, goIntOrString(value), 'must not be greater than 100%')];
}
