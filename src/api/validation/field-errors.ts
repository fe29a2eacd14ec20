/**
 * Field errors worded as upstream's k8s.io/apimachinery pkg/util/validation/field (errors.go,
 * 1.10): each constructor gives the StatusCause a 422 Invalid carries, with upstream's reason
 * (`FieldValueRequired`, ...) and message (`Required value`, `Invalid value: "x": detail`, ...).
 * Field paths are written as upstream prints them: `spec.containers[0].ports[1].name`,
 * map keys as `metadata.labels[app]`.
 */
import type { StatusCause } from '../status.js';

/** One field problem; rendered as `<field>: <message>` in the aggregate message. */
export interface FieldError extends StatusCause {
  field: string;
  message: string;
  reason: NonNullable<StatusCause['reason']>;
}

/** A value as upstream's field.Error prints it: strings quoted (%q), numbers and booleans bare, nil as "null". */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '"null"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** `Required value` (optionally `Required value: detail`). */
export function required(field: string, detail = ''): FieldError {
  return { reason: 'FieldValueRequired', field, message: detail ? `Required value: ${detail}` : 'Required value' };
}

/** `Invalid value: <value>: detail`. */
export function invalidValue(field: string, value: unknown, detail: string): FieldError {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: detail ? `Invalid value: ${formatValue(value)}: ${detail}` : `Invalid value: ${formatValue(value)}`,
  };
}

/** `Duplicate value: <value>`. */
export function duplicate(field: string, value: unknown): FieldError {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${formatValue(value)}` };
}

/** `Unsupported value: <value>: supported values: "a", "b"`. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const list = supported.length ? `: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
  return { reason: 'FieldValueNotSupported', field, message: `Unsupported value: ${formatValue(value)}${list}` };
}

/** `Forbidden: detail`. */
export function forbidden(field: string, detail: string): FieldError {
  return { reason: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` };
}

/** `Too long: must have at most N characters` (upstream 1.10 wording). */
export function tooLong(field: string, _value: unknown, max: number): FieldError {
  return { reason: 'FieldValueTooLong', field, message: `Too long: must have at most ${max} characters` };
}

/** `Too many: N: must have at most M items`. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  return { reason: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` };
}

/** `Internal error: detail`. */
export function internal(field: string, detail: string): FieldError {
  return { reason: 'InternalError', field, message: `Internal error: ${detail}` };
}

/** `Not found: <value>` (a reference to something that does not exist, e.g. a volume mount's volume). */
export function notFound(field: string, value: unknown): FieldError {
  return { reason: 'FieldValueNotFound', field, message: `Not found: ${formatValue(value)}` };
}
