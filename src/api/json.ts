/**
 * JSON values, the one description of them for the whole server: what `JSON.parse` gives and
 * objects carry, and the guards that narrow an `unknown` (a decoded body, a field of an
 * object not checked yet) to them without a cast.
 */

/** A JSON value. */
export type Json = null | boolean | number | string | readonly Json[] | JsonMap;

/** A JSON object. */
export type JsonMap = { readonly [key: string]: Json };

/** True for a plain JSON object (not null, not a list). */
export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for a JSON list. */
export function isList(v: unknown): v is readonly Json[] {
  return Array.isArray(v);
}

/**
 * True for an object that is not a list (a decoded JSON object, an object's nested field):
 * its fields can then be read, as `unknown`, and written.
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fields of `v` when it is an object (see {@link isRecord}), else an empty object. */
export function recordOf(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}
