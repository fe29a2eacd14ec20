/**
 * The Kubernetes lists library, version 0 (k8s.io/apiserver pkg/cel/library/lists.go): on lists
 * of comparable elements `isSorted()`, `min()`, `max()`, on numbers and durations `sum()`, and
 * `indexOf(x)`, `lastIndexOf(x)` on any list. Errors as upstream: `min called on empty list`.
 */
import { type Overload, member } from './functions.js';
import { cmpStr } from './stdlib.js';
import { A, BOOL, BYTES, type CelType, DOUBLE, DURATION, INT, STRING, TIMESTAMP, UINT, listOf } from './types.js';
import {
  CelDuration,
  CelErr,
  CelTimestamp,
  CelUint,
  type Result,
  type Value,
  celEquals,
  checkedInt,
  checkedUint,
  compareNumbers,
} from './values.js';

/** Compare two values of one comparable type. */
export function compareValues(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return cmpStr(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof CelTimestamp && b instanceof CelTimestamp) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  if (a instanceof CelDuration && b instanceof CelDuration) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  const x = a instanceof CelUint ? a.v : (a as number | bigint);
  const y = b instanceof CelUint ? b.v : (b as number | bigint);
  return compareNumbers(x, y) ?? 0;
}

const COMPARABLE: [string, CelType][] = [
  ['int', INT],
  ['uint', UINT],
  ['double', DOUBLE],
  ['bool', BOOL],
  ['string', STRING],
  ['bytes', BYTES],
  ['duration', DURATION],
  ['timestamp', TIMESTAMP],
];

const extreme =
  (fn: string, sign: number) =>
  (l: Value[]): Result => {
    if (l.length === 0) return new CelErr(`${fn} called on empty list`);
    return l.reduce((m, x) => (compareValues(x, m) * sign > 0 ? x : m));
  };

function sum(l: Value[], t: string): Result {
  if (t === 'double') return l.reduce((s: number, x) => s + (x as number), 0);
  if (t === 'duration') return new CelDuration(l.reduce((s: bigint, x) => s + (x as CelDuration).ns, 0n));
  if (t === 'uint') return checkedUint(l.reduce((s: bigint, x) => s + (x as CelUint).v, 0n));
  return checkedInt(l.reduce((s: bigint, x) => s + (x as bigint), 0n));
}

/** The lists library's overloads. */
export const LISTS: readonly Overload[] = [
  ...COMPARABLE.flatMap(([n, t]) => [
    member('isSorted', `list_${n}_is_sorted_bool`, [listOf(t)], BOOL, (l: Value[]) =>
      l.every((x, i) => i === 0 || compareValues(l[i - 1]!, x) <= 0),
    ),
    member('min', `list_${n}_min_${n}`, [listOf(t)], t, extreme('min', -1)),
    member('max', `list_${n}_max_${n}`, [listOf(t)], t, extreme('max', 1)),
  ]),
  ...(
    [
      ['int', INT],
      ['uint', UINT],
      ['double', DOUBLE],
      ['duration', DURATION],
    ] as [string, CelType][]
  ).map(([n, t]) => member('sum', `list_${n}_sum_${n}`, [listOf(t)], t, (l: Value[]) => sum(l, n))),
  member('indexOf', 'list_a_index_of_int', [listOf(A), A], INT, (l: Value[], x: Value) =>
    BigInt(l.findIndex((y) => celEquals(x, y))),
  ),
  member('lastIndexOf', 'list_a_last_index_of_int', [listOf(A), A], INT, (l: Value[], x: Value) =>
    BigInt(l.findLastIndex((y) => celEquals(x, y))),
  ),
];
