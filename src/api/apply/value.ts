/**
 * JSON values as structured-merge-diff's `value` package sees them: a total order across kinds
 * (numbers < strings < booleans < lists < maps < null), deep equality, and the human-readable
 * form used in field paths (`value.ToString`). Pure; no I/O.
 */
import { compareStrings, goNumber, goQuote } from './go-format.js';
import { isMap, type Json, type JsonMap } from '../json.js';

/** The JSON value types, described once in api/json.ts. */
export { isMap, type Json, type JsonMap };

/** True for a number, string or boolean. */
export function isScalar(v: unknown): v is number | string | boolean {
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
}

function rank(v: Json): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v === null) return 5;
  return 4;
}

/** structured-merge-diff `value.Compare`: -1, 0 or 1 in its total order. */
export function compareValues(a: Json, b: Json): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isMap(a) && isMap(b)) return compareMaps(a, b);
  return 0;
}

function compareLists(a: readonly Json[], b: readonly Json[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
}

/** Maps compare key by key in lexical key order (upstream MapCompare). */
function compareMaps(a: JsonMap, b: JsonMap): number {
  const la = Object.keys(a).length;
  const lb = Object.keys(b).length;
  if (la === 0 && lb === 0) return 0;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareStrings);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === la) c = -1;
    else if (i === lb) c = 1;
    else if (!Object.hasOwn(a, k)) c = 1;
    else if (!Object.hasOwn(b, k)) c = -1;
    else c = compareValues(a[k], b[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** Deep equality of two JSON values (upstream `value.Equals`). */
export function equalValues(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => equalValues(x, b[i]));
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && equalValues(a[k], b[k]));
  }
  return false;
}

/** upstream `value.ToString`: `"c"`, `80`, `true`, `null`, `[a,b]`, `k=v` (maps, keys sorted). */
export function valueToString(v: Json): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (!isMap(v)) return `[${v.map(valueToString).join(',')}]`;
  return Object.keys(v)
    .sort(compareStrings)
    .map((k) => `${k}=${valueToString(v[k])}`)
    .join('');
}

/** A copy of `v` with object keys sorted, so equal values serialize equally. */
export function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (isMap(v)) {
    const out: Record<string, Json> = {};
    for (const k of Object.keys(v).sort(compareStrings)) out[k] = canonical(v[k]);
    return out;
  }
  return v;
}
