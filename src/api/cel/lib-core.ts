/**
 * Overloads the checker needs for CEL's special forms (`&&`, `||`, `?:`, `@not_strictly_false`:
 * the interpreter evaluates them itself, absorbing errors) and the macro helper `cel.@mapInsert`
 * of two-variable comprehensions, plus the optional library (cel-go `cel.OptionalTypes()`,
 * Kubernetes 1.28+): `optional.of`, `optional.none`, `optional.ofNonZeroValue`, `hasValue`,
 * `value`, `orValue`, `or`. The `?.` and `[?` syntax is not parsed (see docs/cel.md).
 */
import { type Overload, global, member } from './functions.js';
import { A, B, BOOL, mapOf, optionalOf } from './types.js';
import {
  CelDuration,
  CelErr,
  CelMap,
  CelObject,
  CelOptional,
  CelTimestamp,
  CelUint,
  type Value,
  mapKey,
} from './values.js';

const unused = (): CelErr => new CelErr('special form');

/** Special forms and macro helpers. */
export const CORE: readonly Overload[] = [
  global('_&&_', 'logical_and', [BOOL, BOOL], BOOL, unused),
  global('_||_', 'logical_or', [BOOL, BOOL], BOOL, unused),
  global('_?_:_', 'conditional', [BOOL, A, A], A, unused),
  global('@not_strictly_false', 'not_strictly_false', [BOOL], BOOL, unused),
  global(
    'cel.@mapInsert',
    'cel_@mapInsert_map_key_value',
    [mapOf(A, B), A, B],
    mapOf(A, B),
    (m: CelMap, k: Value, v: Value) => {
      if (m.has(k)) return new CelErr(`insert failed: key ${String(k)} already exists`);
      const out = CelMap.of(m.entries.values());
      out.entries.set(mapKey(k), [k, v]);
      return out;
    },
  ),
  global(
    'cel.@mapInsert',
    'cel_@mapInsert_map_map',
    [mapOf(A, B), mapOf(A, B)],
    mapOf(A, B),
    (m: CelMap, n: CelMap) => {
      const out = CelMap.of(m.entries.values());
      for (const [k, v] of n.entries.values()) {
        if (out.has(k)) return new CelErr(`insert failed: key ${String(k)} already exists`);
        out.entries.set(mapKey(k), [k, v]);
      }
      return out;
    },
  ),
];

const isZero = (v: Value): boolean =>
  v === null ||
  v === false ||
  v === 0 ||
  v === 0n ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (v instanceof Uint8Array && v.length === 0) ||
  (v instanceof CelMap && v.size === 0) ||
  (v instanceof CelObject && v.fields.size === 0) ||
  (v instanceof CelUint && v.v === 0n) ||
  (v instanceof CelDuration && v.ns === 0n) ||
  (v instanceof CelTimestamp && v.ns === -62135596800_000_000_000n);

/** cel-go's optional library. */
export const OPTIONAL: readonly Overload[] = [
  global('optional.of', 'optional_of', [A], optionalOf(A), (v: Value) => new CelOptional(v)),
  global('optional.ofNonZeroValue', 'optional_ofNonZeroValue', [A], optionalOf(A), (v: Value) =>
    isZero(v) ? new CelOptional(undefined) : new CelOptional(v),
  ),
  global('optional.none', 'optional_none', [], optionalOf(A), () => new CelOptional(undefined)),
  member('hasValue', 'optional_hasValue', [optionalOf(A)], BOOL, (o: CelOptional) => o.value !== undefined),
  member('value', 'optional_value', [optionalOf(A)], A, (o: CelOptional) =>
    o.value === undefined ? new CelErr('optional.none() dereference') : o.value,
  ),
  member('orValue', 'optional_orValue_value', [optionalOf(A), A], A, (o: CelOptional, d: Value) => o.value ?? d),
  member(
    'or',
    'optional_or_optional',
    [optionalOf(A), optionalOf(A)],
    optionalOf(A),
    (o: CelOptional, p: CelOptional) => (o.value !== undefined ? o : p),
  ),
];
