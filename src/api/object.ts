/**
 * Structural types of stored objects as they travel through the server. Objects are plain JSON
 * values; the per-kind zod schemas in `resources/<kind>` describe their fields, and the meta
 * schema (meta-schema.ts) their metadata.
 */

import { isRecord, recordOf } from './json.js';
import type { ObjectMeta } from './meta-schema.js';

/** ObjectMeta (meta/v1), inferred from its schema (api/meta-schema.ts). Timestamps are RFC 3339 strings. */
export type { ObjectMeta };

/** metadata.ownerReferences[] entry. */
export type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number];

/** Any API object: apiVersion, kind, metadata, and the kind's own fields. */
export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/**
 * Whether `v` is an object with an object as metadata: a decoded body or a merge result taken
 * as an ApiObject (its fields are checked against its kind's schema when it is written).
 */
export function isApiObject(v: unknown): v is ApiObject {
  return isRecord(v) && isRecord(v.metadata);
}

/** ListMeta (meta/v1). */
export interface ListMeta {
  selfLink?: string | null;
  resourceVersion?: string | null;
  continue?: string;
  remainingItemCount?: number;
}

/** A typed list: `<Kind>List`. Items are encoded without their own kind/apiVersion, as upstream. */
export interface ApiList<T extends ApiObject = ApiObject> {
  kind: string;
  apiVersion: string;
  metadata: ListMeta;
  items: T[];
}

/**
 * Set an own enumerable property, also for the key `__proto__` (which plain assignment would
 * take as the object's prototype). JSON decoders give such keys as own properties; merges
 * and copies must keep them as data, as upstream's decoders treat every key.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * A shallow copy of `obj` with `key` set to `value`: in its place when `obj` has it, else last,
 * as `{ ...obj, [key]: value }` orders them. Copied key by key: in V8 (Node 20) a spread
 * followed by another property, `{ ...meta, selfLink }`, takes a slow path that costs over a
 * microsecond on the objects JSON.parse makes; this takes about a tenth of that. Own enumerable
 * string keys are copied (`__proto__` as data, see {@link setOwn}), as plain JSON values have.
 */
export function withOwn<T extends object>(obj: T, key: string, value: unknown): T {
  const from = obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let found = false;
  for (const k of Object.keys(from)) {
    if (k === key) found = true;
    setOwn(out, k, k === key ? value : from[k]);
  }
  if (!found) setOwn(out, key, value);
  return out as T;
}

/**
 * Deep copy of a plain JSON value (objects here are always plain JSON: own enumerable
 * properties, arrays, scalars), without recursion, so no nesting depth can exhaust the stack.
 * A value shared or repeated inside `value` is copied once and shared in the copy, as
 * structuredClone does. Other objects (Dates, Maps, class instances) are copied as plain
 * objects of their own enumerable properties.
 */
export function deepCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copies = new Map<object, unknown>();
  const pending: Copying[] = [];
  const copyOf = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    let c = copies.get(v);
    if (c === undefined) {
      if (Array.isArray(v)) {
        const to: unknown[] = new Array(v.length);
        pending.push({ list: true, from: v, to });
        c = to;
      } else {
        const to: Record<string, unknown> = {};
        pending.push({ list: false, from: recordOf(v), to });
        c = to;
      }
      copies.set(v, c);
    }
    return c;
  };
  const root = copyOf(value);
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.list) {
      for (let i = 0; i < next.from.length; i++) next.to[i] = copyOf(next.from[i]);
    } else {
      for (const k of Object.keys(next.from)) setOwn(next.to, k, copyOf(next.from[k]));
    }
  }
  // The copy has the shape of `value`: the one conversion back to its type.
  return root as T;
}

/** A list or an object being copied by deepCopy, and its copy. */
type Copying =
  | { readonly list: true; readonly from: readonly unknown[]; readonly to: unknown[] }
  | { readonly list: false; readonly from: Readonly<Record<string, unknown>>; readonly to: Record<string, unknown> };

/**
 * What was kept on `obj` under `slot` by {@link keep}, or undefined. For values derived once
 * from a shared, never-changed object (a stored object's list item, an item's encoding).
 */
export function kept<T>(obj: object, slot: symbol): T | undefined {
  return Reflect.get(obj, slot);
}

/**
 * Keep `value` on `obj` under `slot`, as a non-enumerable property: JSON, spreads,
 * Object.keys and deepCopy do not see it. Reading it back is a property load on an object the
 * reader touches anyway, where a WeakMap costs a hash-table probe (on a 10,000-item list, two
 * such probes per item were a tenth of the server's time). Returns `value`; keeps nothing on
 * an object that cannot be extended.
 */
export function keep<T>(obj: object, slot: symbol, value: T): T {
  if (Object.isExtensible(obj)) Object.defineProperty(obj, slot, { value });
  return value;
}

/**
 * RFC 3339 UTC at second precision, as metav1.Time marshals (`2018-03-26T15:04:05Z`); the
 * current time when no date is given.
 */
export function rfc3339(date?: Date): string {
  if (date) return format3339(date);
  // Every object created within one second carries the same timestamp: format it once.
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastStamp = format3339(new Date(second * 1000));
  }
  return lastStamp;
}

let lastSecond = -1;
let lastStamp = '';

function format3339(date: Date): string {
  const iso = date.toISOString();
  // toISOString always ends in `.sssZ`; the fraction is dropped without a regular expression.
  return `${iso.slice(0, -5)}Z`;
}
