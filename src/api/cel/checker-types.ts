/**
 * Type helpers of the checker: fresh type variables for empty literals and overload results
 * (cel-go's `_var0`...), literal types, and the final substitution of unbound variables by dyn.
 */
import {
  BOOL,
  BYTES,
  type CelType,
  DOUBLE,
  INT,
  NULL,
  STRING,
  UINT,
  listOf,
  mapOf,
  param,
  substitute,
  typeOf,
} from './types.js';
import { CelUint, type Value } from './values.js';

let freeCounter = 0;
/** A fresh free type variable (an empty literal's element type until unified). */
export const free = (): CelType => param(`_free${++freeCounter}`);
/** Whether `t` still holds a free type variable. */
export const hasFree = (t: CelType): boolean =>
  t.kind === 'param'
    ? t.name.startsWith('_free')
    : t.kind === 'list'
      ? hasFree(t.elem)
      : t.kind === 'map'
        ? hasFree(t.key) || hasFree(t.value)
        : false;

/** `t` with unbound type variables replaced by dyn (the type a checked node ends with). */
export const finalize = (t: CelType): CelType => substitute(t, new Map(), true);

/** Replace an overload's own unbound type parameters in a result by fresh free ones. */
export function freshen(t: CelType, names = new Map<string, CelType>()): CelType {
  switch (t.kind) {
    case 'param':
      if (t.name.startsWith('_free')) return t;
      if (!names.has(t.name)) names.set(t.name, free());
      return names.get(t.name)!;
    case 'list':
      return listOf(freshen(t.elem, names));
    case 'map':
      return mapOf(freshen(t.key, names), freshen(t.value, names));
    case 'opaque':
      return t.params.length ? { ...t, params: t.params.map((p) => freshen(p, names)) } : t;
    case 'type':
      return t.of ? typeOf(freshen(t.of, names)) : t;
    default:
      return t;
  }
}

/** The type of a literal. */
export function constType(v: Value): CelType {
  switch (typeof v) {
    case 'bigint':
      return INT;
    case 'number':
      return DOUBLE;
    case 'string':
      return STRING;
    case 'boolean':
      return BOOL;
  }
  if (v === null) return NULL;
  if (v instanceof CelUint) return UINT;
  return BYTES;
}
