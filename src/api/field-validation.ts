/**
 * Checking a decoded object against its kind's schema, the way upstream reports it:
 * type and value problems become 422 causes with upstream field paths
 * (`spec.containers[0].image`) and reasons; unknown fields follow `fieldValidation`
 * (1.25+ semantics): `Strict` fails with 400 naming each field, `Warn` (the default) drops
 * them and returns warnings, `Ignore` drops them silently.
 */
import type { z } from 'zod';
import type { FieldError } from './validation/field-errors.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface SchemaCheck {
  /** Type and value problems (422 causes). */
  readonly errors: FieldError[];
  /** Unknown field paths, e.g. `spec.foo` (already removed from the object). */
  readonly unknown: string[];
}

/** `spec.containers[0].image` from a path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const p of path) cur = cur && typeof cur === 'object' ? Reflect.get(cur, p) : undefined;
  return cur;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return Array.isArray(value) ? '[...]' : '{...}';
  return String(value);
}

/**
 * Validate `obj` against `schema`, removing unknown fields from `obj` in place. Returns the
 * problems found; never throws.
 */
export function checkSchema(schema: z.ZodType, obj: unknown): SchemaCheck {
  const res = schema.safeParse(obj);
  if (res.success) return { errors: [], unknown: [] };
  const errors: FieldError[] = [];
  const unknown: string[] = [];
  for (const issue of res.error.issues) {
    const field = fieldPath(issue.path);
    const value = valueAt(obj, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const parent = valueAt(obj, issue.path);
      for (const key of issue.keys) {
        unknown.push(field ? `${field}.${key}` : key);
        if (parent && typeof parent === 'object') Reflect.deleteProperty(parent, key);
      }
    } else if (issue.code === 'invalid_type' && value === undefined) {
      errors.push({ reason: 'FieldValueRequired', field, message: 'Required value' });
    } else if (issue.code === 'invalid_value' && 'values' in issue) {
      const supported = issue.values.map((v) => JSON.stringify(v)).join(', ');
      errors.push({
        reason: 'FieldValueNotSupported',
        field,
        message: `Unsupported value: ${show(value)}: supported values: ${supported}`,
      });
    } else {
      errors.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${show(value)}: ${issue.message}` });
    }
  }
  return { errors, unknown };
}

/** Parse the `fieldValidation` query value (default Warn). Returns null for an unknown value. */
export function parseFieldValidation(value: string | undefined): FieldValidation | null {
  if (value === undefined || value === '') return 'Warn';
  return value === 'Strict' || value === 'Warn' || value === 'Ignore' ? value : null;
}
