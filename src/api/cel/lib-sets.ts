/**
 * cel-go's sets extension (ext/sets.go; Kubernetes 1.29+): `sets.contains(a, b)` (every element
 * of b is in a), `sets.equivalent(a, b)` (same elements), `sets.intersects(a, b)`.
 */
import { type Overload, global } from './functions.js';
import { A, BOOL, listOf } from './types.js';
import { type Value, celEquals } from './values.js';

const has = (l: Value[], x: Value): boolean => l.some((y) => celEquals(x, y));

/** The sets extension's overloads. */
export const SETS: readonly Overload[] = [
  global('sets.contains', 'list_sets_contains_list', [listOf(A), listOf(A)], BOOL, (a: Value[], b: Value[]) =>
    b.every((x) => has(a, x)),
  ),
  global(
    'sets.equivalent',
    'list_sets_equivalent_list',
    [listOf(A), listOf(A)],
    BOOL,
    (a: Value[], b: Value[]) => b.every((x) => has(a, x)) && a.every((x) => has(b, x)),
  ),
  global('sets.intersects', 'list_sets_intersects_list', [listOf(A), listOf(A)], BOOL, (a: Value[], b: Value[]) =>
    a.some((x) => has(b, x)),
  ),
];
