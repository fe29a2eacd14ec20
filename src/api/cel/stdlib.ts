/**
 * CEL's standard functions and operators (cel-go checker/decls/standard.go and
 * interpreter/functions/standard.go; overload ids from common/overloads): arithmetic with int64
 * overflow errors, comparisons with CrossTypeNumericComparisons (Kubernetes 1.28+), equality,
 * `in`, indexing, `size`, string predicates, conversions. Timestamps and durations are in
 * `stdlib-time.ts`; `&&`, `||`, `?:` and `@not_strictly_false` are special forms of the interpreter.
 */
import { compileRegex } from './regex.js';
import { type Overload, global, member } from './functions.js';
import {
  A,
  B,
  BOOL,
  BYTES,
  type CelType,
  DOUBLE,
  DYN,
  INT,
  NULL,
  STRING,
  UINT,
  TIMESTAMP,
  DURATION,
  listOf,
  mapOf,
  opaque,
  typeOf,
} from './types.js';
import {
  CelErr,
  CelMap,
  CelObject,
  CelTypeValue,
  CelUint,
  type Result,
  type Value,
  celEquals,
  checkedInt,
  checkedUint,
  codePointLength,
  concatLists,
  compareNumbers,
  typeName,
} from './values.js';
import { goFloat } from '../crd-schema/go-format.js';

type Num = bigint | number | CelUint;
const n = (v: Num): bigint | number => (v instanceof CelUint ? v.v : v);
const NUMS: [string, CelType][] = [
  ['int64', INT],
  ['uint64', UINT],
  ['double', DOUBLE],
];

function comparisons(): Overload[] {
  const out: Overload[] = [];
  const ops: [string, string, (c: number) => boolean][] = [
    ['_<_', 'less', (c) => c < 0],
    ['_<=_', 'less_equals', (c) => c <= 0],
    ['_>_', 'greater', (c) => c > 0],
    ['_>=_', 'greater_equals', (c) => c >= 0],
  ];
  for (const [fn, name, ok] of ops) {
    for (const [ln, lt] of NUMS) {
      for (const [rn, rt] of NUMS) {
        const id = ln === rn ? `${name}_${ln}` : `${name}_${ln}_${rn}`;
        out.push(
          global(fn, id, [lt, rt], BOOL, (a: Num, b: Num) => {
            const c = compareNumbers(n(a), n(b));
            return c === undefined ? false : ok(c);
          }),
        );
      }
    }
    out.push(global(fn, `${name}_string`, [STRING, STRING], BOOL, (a: string, b: string) => ok(cmpStr(a, b))));
    out.push(global(fn, `${name}_bool`, [BOOL, BOOL], BOOL, (a: boolean, b: boolean) => ok(Number(a) - Number(b))));
    out.push(global(fn, `${name}_bytes`, [BYTES, BYTES], BOOL, (a: Uint8Array, b: Uint8Array) => ok(cmpBytes(a, b))));
  }
  return out;
}

/** Compare strings by code point (Go compares UTF-8 bytes, which orders the same). */
export function cmpStr(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function arithmetic(): Overload[] {
  const i = (fn: string, id: string, f: (a: bigint, b: bigint) => Result) =>
    global(fn, id, [INT, INT], INT, (a: bigint, b: bigint) => f(a, b));
  const u = (fn: string, id: string, f: (a: bigint, b: bigint) => Result) =>
    global(fn, id, [UINT, UINT], UINT, (a: CelUint, b: CelUint) => f(a.v, b.v));
  const d = (fn: string, id: string, f: (a: number, b: number) => number) =>
    global(fn, id, [DOUBLE, DOUBLE], DOUBLE, (a: number, b: number) => f(a, b));
  return [
    i('_+_', 'add_int64', (a, b) => checkedInt(a + b)),
    u('_+_', 'add_uint64', (a, b) => checkedUint(a + b)),
    d('_+_', 'add_double', (a, b) => a + b),
    global('_+_', 'add_string', [STRING, STRING], STRING, (a: string, b: string) => a + b),
    global('_+_', 'add_bytes', [BYTES, BYTES], BYTES, (a: Uint8Array, b: Uint8Array) => new Uint8Array([...a, ...b])),
    global('_+_', 'add_list', [listOf(A), listOf(A)], listOf(A), (a: Value[], b: Value[]) => concatLists(a, b)),
    i('_-_', 'subtract_int64', (a, b) => checkedInt(a - b)),
    u('_-_', 'subtract_uint64', (a, b) => checkedUint(a - b)),
    d('_-_', 'subtract_double', (a, b) => a - b),
    i('_*_', 'multiply_int64', (a, b) => checkedInt(a * b)),
    u('_*_', 'multiply_uint64', (a, b) => checkedUint(a * b)),
    d('_*_', 'multiply_double', (a, b) => a * b),
    i('_/_', 'divide_int64', (a, b) => (b === 0n ? new CelErr('division by zero') : checkedInt(a / b))),
    u('_/_', 'divide_uint64', (a, b) => (b === 0n ? new CelErr('division by zero') : new CelUint(a / b))),
    d('_/_', 'divide_double', (a, b) => a / b),
    i('_%_', 'modulo_int64', (a, b) => (b === 0n ? new CelErr('modulus by zero') : a % b)),
    u('_%_', 'modulo_uint64', (a, b) => (b === 0n ? new CelErr('modulus by zero') : new CelUint(a % b))),
    global('-_', 'negate_int64', [INT], INT, (a: bigint) => checkedInt(-a)),
    global('-_', 'negate_double', [DOUBLE], DOUBLE, (a: number) => -a),
    global('!_', 'logical_not', [BOOL], BOOL, (a: boolean) => !a),
  ];
}

const size = (v: Value): bigint =>
  typeof v === 'string'
    ? BigInt(codePointLength(v))
    : v instanceof Uint8Array
      ? BigInt(v.length)
      : Array.isArray(v)
        ? BigInt(v.length)
        : v instanceof CelMap
          ? BigInt(v.size)
          : BigInt((v as CelObject).fields.size);

function containers(): Overload[] {
  return [
    global('_==_', 'equals', [A, A], BOOL, (a: Value, b: Value) => celEquals(a, b)),
    global('_!=_', 'not_equals', [A, A], BOOL, (a: Value, b: Value) => !celEquals(a, b)),
    global('@in', 'in_list', [A, listOf(A)], BOOL, (a: Value, l: Value[]) => l.some((x) => celEquals(a, x))),
    global('@in', 'in_map', [A, mapOf(A, B)], BOOL, (a: Value, m: CelMap | CelObject) =>
      m instanceof CelMap ? m.has(a) : typeof a === 'string' && m.fields.has(a),
    ),
    global('_[_]', 'index_list', [listOf(A), INT], A, (l: Value[], i: bigint) =>
      i < 0n || i >= BigInt(l.length) ? new CelErr(`index out of bounds: ${i}`) : l[Number(i)]!,
    ),
    global('_[_]', 'index_map', [mapOf(A, B), A], B, (m: CelMap | CelObject, k: Value) => {
      const v = m instanceof CelMap ? m.get(k) : typeof k === 'string' ? m.fields.get(k) : undefined;
      return v === undefined ? new CelErr(`no such key: ${formatKey(k)}`) : v;
    }),
    ...(
      [
        ['string', STRING],
        ['bytes', BYTES],
        ['list', listOf(A)],
        ['map', mapOf(A, B)],
      ] as const
    ).flatMap(([nm, t]) => [
      global('size', `size_${nm}`, [t], INT, (v: Value) => size(v)),
      member('size', `${nm}_size`, [t], INT, (v: Value) => size(v)),
    ]),
    member('contains', 'contains_string', [STRING, STRING], BOOL, (s: string, x: string) => s.includes(x)),
    member('startsWith', 'starts_with_string', [STRING, STRING], BOOL, (s: string, x: string) => s.startsWith(x)),
    member('endsWith', 'ends_with_string', [STRING, STRING], BOOL, (s: string, x: string) => s.endsWith(x)),
    member('matches', 'matches_string', [STRING, STRING], BOOL, (s: string, re: string) => matches(s, re)),
    global('matches', 'matches', [STRING, STRING], BOOL, (s: string, re: string) => matches(s, re)),
  ];
}

function matches(s: string, re: string): Result {
  const r = compileRegex(re);
  return r instanceof CelErr ? r : r.matcher(s).find();
}

/** A map key as cel-go prints it in `no such key: <key>`. */
export function formatKey(k: Value): string {
  return typeof k === 'string' ? k : k instanceof CelUint ? String(k.v) : String(k);
}

function conversions(): Overload[] {
  const INT_RANGE = 2 ** 63;
  return [
    global('int', 'int64_to_int64', [INT], INT, (v: bigint) => v),
    global('int', 'uint64_to_int64', [UINT], INT, (v: CelUint) => checkedInt(v.v)),
    global('int', 'double_to_int64', [DOUBLE], INT, (v: number) =>
      !Number.isFinite(v) || v <= -INT_RANGE || v >= INT_RANGE ? new CelErr('integer overflow') : BigInt(Math.trunc(v)),
    ),
    global('int', 'string_to_int64', [STRING], INT, (s: string) =>
      /^[+-]?\d+$/.test(s) ? checkedInt(BigInt(s)) : new CelErr(`cannot convert string '${s}' to int`),
    ),
    global('uint', 'uint64_to_uint64', [UINT], UINT, (v: CelUint) => v),
    global('uint', 'int64_to_uint64', [INT], UINT, (v: bigint) => checkedUint(v)),
    global('uint', 'double_to_uint64', [DOUBLE], UINT, (v: number) =>
      !Number.isFinite(v) || v < 0 || v >= 2 ** 64
        ? new CelErr('unsigned integer overflow')
        : new CelUint(BigInt(Math.trunc(v))),
    ),
    global('uint', 'string_to_uint64', [STRING], UINT, (s: string) =>
      /^\+?\d+$/.test(s) ? checkedUint(BigInt(s)) : new CelErr(`cannot convert string '${s}' to uint`),
    ),
    global('double', 'double_to_double', [DOUBLE], DOUBLE, (v: number) => v),
    global('double', 'int64_to_double', [INT], DOUBLE, (v: bigint) => Number(v)),
    global('double', 'uint64_to_double', [UINT], DOUBLE, (v: CelUint) => Number(v.v)),
    global('double', 'string_to_double', [STRING], DOUBLE, (s: string) => {
      const t = s.trim() === s && s !== '' ? Number(s.replace(/^(-?)inf(inity)?$/i, '$1Infinity')) : NaN;
      return Number.isNaN(t) && !/^nan$/i.test(s) ? new CelErr(`cannot convert string '${s}' to double`) : t;
    }),
    global('string', 'string_to_string', [STRING], STRING, (v: string) => v),
    global('string', 'int64_to_string', [INT], STRING, (v: bigint) => v.toString()),
    global('string', 'uint64_to_string', [UINT], STRING, (v: CelUint) => v.v.toString()),
    global('string', 'double_to_string', [DOUBLE], STRING, (v: number) => goFloat(v)),
    global('string', 'bool_to_string', [BOOL], STRING, (v: boolean) => String(v)),
    global('string', 'bytes_to_string', [BYTES], STRING, (v: Uint8Array) => {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(v);
      } catch {
        return new CelErr('invalid UTF-8 in bytes, cannot convert to string');
      }
    }),
    global('bytes', 'bytes_to_bytes', [BYTES], BYTES, (v: Uint8Array) => v),
    global('bytes', 'string_to_bytes', [STRING], BYTES, (v: string) => new TextEncoder().encode(v)),
    global('bool', 'bool_to_bool', [BOOL], BOOL, (v: boolean) => v),
    global('bool', 'string_to_bool', [STRING], BOOL, (s: string) => {
      if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(s)) return true;
      if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(s)) return false;
      return new CelErr(`type conversion error from 'string' to 'bool'`);
    }),
    global('dyn', 'to_dyn', [A], DYN, (v: Value) => v),
    global('type', 'type', [A], typeOf(A), (v: Value) => new CelTypeValue(typeName(v))),
  ];
}

/** The standard library's overloads (without time functions). */
export const STANDARD: readonly Overload[] = [...comparisons(), ...arithmetic(), ...containers(), ...conversions()];

/** Types usable as identifiers (`type(x) == string`). */
export const TYPE_IDENTS: ReadonlyMap<string, CelType> = new Map<string, CelType>([
  ['int', INT],
  ['uint', UINT],
  ['double', DOUBLE],
  ['bool', BOOL],
  ['string', STRING],
  ['bytes', BYTES],
  ['null_type', NULL],
  ['list', listOf(DYN)],
  ['map', mapOf(DYN, DYN)],
  ['type', typeOf()],
  ['google.protobuf.Timestamp', TIMESTAMP],
  ['google.protobuf.Duration', DURATION],
  ['net.IP', opaque('net.IP')],
  ['net.CIDR', opaque('net.CIDR')],
  ['kubernetes.Quantity', opaque('kubernetes.Quantity')],
  ['kubernetes.URL', opaque('kubernetes.URL')],
  ['kubernetes.Semver', opaque('kubernetes.Semver')],
]);
