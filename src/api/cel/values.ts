/**
 * Runtime CEL values (cel-go common/types): int is a bigint (int64, overflow checked), uint a
 * CelUint, double a number, string, bool, bytes (Uint8Array), null, lists (arrays), maps (CelMap),
 * schema objects (CelObject, escaped field names), timestamps and durations (nanoseconds), type
 * values, optionals and the opaque Kubernetes types (CelOpaque subclasses). Errors are values
 * (CelErr) so that `&&`, `||` and `?:` can absorb them as CEL requires.
 */

/** A CEL error value (`no such key: x`, `division by zero`, ...). */
export class CelErr {
  constructor(readonly message: string) {}
}

/** uint64. */
export class CelUint {
  constructor(readonly v: bigint) {}
}

/** google.protobuf.Timestamp as nanoseconds since the epoch. */
export class CelTimestamp {
  constructor(
    readonly ns: bigint,
    /** The zone offset the text carried (minutes), kept for string() as Go's time.Time keeps it. */
    readonly offsetMin = 0,
  ) {}
}

/** google.protobuf.Duration in nanoseconds. */
export class CelDuration {
  constructor(readonly ns: bigint) {}
}

/** A type value (`type(x)`, the identifiers `int`, `string`, ...). */
export class CelTypeValue {
  constructor(readonly name: string) {}
}

/** optional_type(T): `optional.of(x)`, `optional.none()`, `oldSelf` with optionalOldSelf. */
export class CelOptional {
  constructor(readonly value: Value | undefined) {}
}

/** A value of an opaque library type (Quantity, URL, IP, CIDR, Semver, Format). */
export abstract class CelOpaque {
  abstract readonly typeName: string;
  abstract equals(other: CelOpaque): boolean;
}

/** A CEL map: keys are int, uint, string or bool; numerically equal keys are the same key. */
export class CelMap {
  readonly entries = new Map<string, readonly [Value, Value]>();
  static of(pairs: Iterable<readonly [Value, Value]>): CelMap {
    const m = new CelMap();
    for (const [k, v] of pairs) m.entries.set(mapKey(k), [k, v]);
    return m;
  }
  get size(): number {
    return this.entries.size;
  }
  get(k: Value): Value | undefined {
    return this.entries.get(mapKey(k))?.[1];
  }
  has(k: Value): boolean {
    return this.entries.has(mapKey(k));
  }
}

/** An object of a schema type: fields by escaped name (absent fields are absent). */
export class CelObject {
  constructor(
    readonly typeName: string,
    readonly fields: ReadonlyMap<string, Value>,
    /** The JSON object, unknown fields included: equality compares it, as upstream's unstructured values do. */
    readonly raw?: unknown,
  ) {}
}

/** `x-kubernetes-list-type` of a list value from the object (set and map lists compare and concatenate by identity). */
export interface ListKind {
  type: 'set' | 'map';
  keys?: readonly string[];
}
const listKinds = new WeakMap<readonly Value[], ListKind>();

/** Mark `l` as a set or map list. */
export function withListKind<T extends readonly Value[]>(l: T, k: ListKind): T {
  listKinds.set(l, k);
  return l;
}

/** The list type of `l`, when it came from a set or map list. */
export const listKindOf = (l: readonly Value[]): ListKind | undefined => listKinds.get(l);

/** The identity of a map-list item (its key fields). */
function itemKey(v: Value, keys: readonly string[]): string {
  if (!(v instanceof CelObject)) return `!${String(v)}`;
  if (v.raw && typeof v.raw === 'object')
    return keys.map((k) => JSON.stringify((v.raw as Record<string, unknown>)[k] ?? null)).join('\u0000');
  return keys.map((k) => (v.fields.has(k) ? canonicalValue(v.fields.get(k)!) : '<absent>')).join('\u0000');
}

function canonicalValue(v: Value): string {
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'bigint' || typeof v === 'number') return `n${String(v)}`;
  return `x${String(v)}`;
}

/** Upstream's list concatenation: set lists union, map lists merge by key (rhs wins), others append. */
export function concatLists(a: readonly Value[], b: readonly Value[]): Value[] {
  const k = listKindOf(a);
  if (!k) return [...a, ...b];
  if (k.type === 'set') return withListKind([...a, ...b.filter((x) => !a.some((y) => celEquals(x, y)))], k);
  const keys = k.keys ?? [];
  const out = [...a];
  for (const item of b) {
    const i = out.findIndex((x) => itemKey(x, keys) === itemKey(item, keys));
    if (i >= 0) out[i] = item;
    else out.push(item);
  }
  return withListKind(out, k);
}

function listEquals(a: readonly Value[], b: readonly Value[]): boolean {
  if (a.length !== b.length) return false;
  const k = listKindOf(a) ?? listKindOf(b);
  if (!k) return a.every((x, i) => celEquals(x, b[i]!));
  if (k.type === 'set')
    return a.every((x) => b.some((y) => celEquals(x, y))) && b.every((y) => a.some((x) => celEquals(x, y)));
  const keys = k.keys ?? [];
  return a.every((x) => {
    const match = b.find((y) => itemKey(x, keys) === itemKey(y, keys));
    return match !== undefined && celEquals(x, match);
  });
}

/** Any CEL value. */
export type Value =
  | bigint
  | number
  | string
  | boolean
  | null
  | Uint8Array
  | CelUint
  | readonly Value[]
  | CelMap
  | CelObject
  | CelTimestamp
  | CelDuration
  | CelTypeValue
  | CelOptional
  | CelOpaque;

/** A result: a value or an error. */
export type Result = Value | CelErr;

/** The identity of a map key. */
export function mapKey(k: Value): string {
  if (typeof k === 'string') return `s${k}`;
  if (typeof k === 'bigint') return `n${k}`;
  if (k instanceof CelUint) return `n${k.v}`;
  if (typeof k === 'number' && Number.isInteger(k)) return `n${BigInt(k)}`;
  if (typeof k === 'boolean') return `b${k}`;
  return `x${String(k)}`;
}

/** The runtime type name of a value (as `type(x)` reports it). */
export function typeName(v: Value): string {
  if (v === null) return 'null_type';
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
  }
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof CelUint) return 'uint';
  if (v instanceof CelMap) return 'map';
  if (v instanceof CelObject) return v.typeName;
  if (v instanceof CelTimestamp) return 'google.protobuf.Timestamp';
  if (v instanceof CelDuration) return 'google.protobuf.Duration';
  if (v instanceof CelTypeValue) return 'type';
  if (v instanceof CelOptional) return 'optional_type';
  return (v as CelOpaque).typeName;
}

const numeric = (v: Value): number | bigint | undefined =>
  typeof v === 'bigint' || typeof v === 'number' ? v : v instanceof CelUint ? v.v : undefined;

/** Numeric comparison across int, uint and double (CrossTypeNumericComparisons); NaN compares as undefined. */
export function compareNumbers(a: number | bigint, b: number | bigint): number | undefined {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
  if (x !== y) return x < y ? -1 : 1;
  // Equal as doubles: refine with exact integers when both are integral.
  if (Number.isInteger(x) && typeof a !== typeof b) {
    const ba = typeof a === 'bigint' ? a : BigInt(a);
    const bb = typeof b === 'bigint' ? b : BigInt(b);
    return ba < bb ? -1 : ba > bb ? 1 : 0;
  }
  return 0;
}

/** CEL equality (heterogeneous: numbers compare by value, other kinds of different type are unequal). */
export function celEquals(a: Value, b: Value): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && compareNumbers(na, nb) === 0;
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && listEquals(a, b);
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const [k, [, v]] of a.entries) {
      const o = b.entries.get(k);
      if (!o || !celEquals(v, o[1])) return false;
    }
    return true;
  }
  if (a instanceof CelObject) {
    if (!(b instanceof CelObject)) return false;
    if (a.raw !== undefined && b.raw !== undefined) return rawEquals(a.raw, b.raw);
    if (a.fields.size !== b.fields.size) return false;
    for (const [k, v] of a.fields) {
      const o = b.fields.get(k);
      if (o === undefined || !celEquals(v, o)) return false;
    }
    return true;
  }
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.ns === b.ns;
  if (a instanceof CelDuration) return b instanceof CelDuration && a.ns === b.ns;
  if (a instanceof CelTypeValue) return b instanceof CelTypeValue && a.name === b.name;
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return celEquals(a.value, b.value);
  }
  if (a instanceof CelOpaque) return b instanceof CelOpaque && a.typeName === b.typeName && a.equals(b);
  return false;
}

/** cel-go's actualSize: size of strings (code points), bytes, lists and maps; 1 otherwise. */
export function actualSize(v: Value | undefined): number {
  if (typeof v === 'string') return codePointLength(v);
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof CelMap) return v.size;
  if (v instanceof CelObject) return v.fields.size;
  return 1;
}

/** The number of Unicode code points of `s`. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;
export const UINT64_MAX = (1n << 64n) - 1n;

/** An int result, or the overflow error cel-go returns. */
export function checkedInt(v: bigint): Result {
  return v < INT64_MIN || v > INT64_MAX ? new CelErr('integer overflow') : v;
}

/** A uint result, or the overflow error. */
export function checkedUint(v: bigint): Result {
  return v < 0n || v > UINT64_MAX ? new CelErr('unsigned integer overflow') : new CelUint(v);
}

function rawEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((x, i) => rawEquals(x, (b as unknown[])[i]));
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return (
    ak.length === Object.keys(bo).length &&
    ak.every((k) => k in bo && rawEquals((a as Record<string, unknown>)[k], bo[k]))
  );
}
