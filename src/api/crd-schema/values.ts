/**
 * Decoded JSON values seen as upstream's Go code sees them: the kind of a value (an integral
 * number is Go's int64, as apimachinery decodes `20`; any other number float64), deep equality
 * (reflect.DeepEqual on decoded JSON), and the key of a `x-kubernetes-list-type: map` item.
 * NOTE: JS numbers cannot tell `1` from `1.0`; upstream treats them as int64 and float64 (so
 * `[1, 1.0]` is a valid set there and a duplicate here). Integers are exact up to 2^53.
 */

/** Go's reflect.Kind of a decoded JSON value. */
export type GoKind = 'nil' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

/** The Go kind of `v`. */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** reflect.DeepEqual of two decoded JSON values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bl = b as unknown[];
    return a.length === bl.length && a.every((v, i) => deepEqual(v, bl[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => k in bo && deepEqual(ao[k], bo[k]));
}

/** A canonical string of a decoded JSON value (map keys sorted), usable as a map key. */
export function canonical(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/**
 * The identity of a list-map item: its key fields' values (absent keys included as absent),
 * or undefined when the item is not an object.
 */
export function listMapKeyOf(item: unknown, keys: readonly string[]): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const o = item as Record<string, unknown>;
  return keys.map((k) => (k in o ? canonical(o[k]) : '<absent>')).join('\u0000');
}

/** swag.IsFloat64AJSONInteger: an integer within ±(2^53-1), with a relative tolerance of 1e-9. */
export function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > Number.MAX_SAFE_INTEGER) return false;
  if (Number.isInteger(f)) return true;
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / (Math.abs(f) + Math.abs(g)) < 1e-9;
}
