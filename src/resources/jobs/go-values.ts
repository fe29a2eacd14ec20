/**
 * Field errors of the batch and autoscaling kinds as Kubernetes 1.33's apimachinery words them
 * where it differs from 1.10's (field-errors.ts): `Too long: may not be more than N bytes`,
 * an Invalid error without a value (`field.OmitValueType`), values of Go types printed as
 * upstream's ErrorBody does (metav1.Time through its String method), and Go's semantic
 * equality of two decoded values (null, absent and empty lists are equal).
 */
import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../../api/validation/field-errors.js';

/** field.TooLong (1.33): `Too long: may not be more than N bytes`. */
export function tooLongBytes(field: string, max: number): FieldError {
  return { reason: 'FieldValueTooLong', field, message: `Too long: may not be more than ${max} bytes` };
}

/** field.Invalid with field.OmitValueType{}: `Invalid value: detail`. */
export function invalidNoValue(field: string, detail: string): FieldError {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${detail}` };
}

/** field.Invalid with a value already printed as upstream prints it (a Go struct's `%#v`, a Stringer). */
export function invalidPrinted(field: string, printed: string, detail: string): FieldError {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${printed}: ${detail}` };
}

/** A metav1.Time as its String method prints it: `2006-01-02 15:04:05.999999999 -0700 MST` (UTC here). */
export function goTime(rfc3339: string): string {
  const ms = Date.parse(rfc3339);
  if (Number.isNaN(ms)) return rfc3339;
  const iso = new Date(ms).toISOString();
  const fraction = /\.(\d+)/.exec(rfc3339)?.[1]?.replace(/0+$/, '') ?? '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}

/** The decoded value with nulls and empty lists removed (Go's zero values). */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(normalized) : undefined;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalized(v);
      if (n !== undefined && n !== null) out[k] = n;
    }
    return out;
  }
  return value ?? undefined;
}

/** apiequality.Semantic.DeepEqual of two decoded values. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(normalized(a), normalized(b));
}
