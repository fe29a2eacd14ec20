/**
 * Defaulting of custom objects by their structural schema, as upstream's apiextensions-apiserver
 * pkg/apiserver/schema/defaulting: algorithm.go (Default) and prunenulls.go
 * (PruneNonNullableNullsWithoutDefaults). Both work in place on decoded JSON.
 */
import type { Structural } from './types.js';

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A deep copy of a JSON value (upstream runtime.DeepCopyJSONValue). */
function deepCopy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** null where the schema is not nullable (an absent schema is not a schema: upstream `s != nil`). */
const isNonNullableNull = (x: unknown, s: Structural | undefined): boolean =>
  x === null && s !== undefined && !s.generic?.nullable;

/**
 * Set every absent field that has a `default` in `schema` to a deep copy of it, recursively
 * through properties, `additionalProperties` and list items; a null where the schema is not
 * nullable is replaced by the default too. Upstream runs it after
 * {@link pruneNonNullableNulls}, so such nulls without a default are gone by then. In place.
 */
export function applyDefaults(x: unknown, schema: Structural | undefined): void {
  if (!schema) return;
  if (Array.isArray(x)) {
    const items = schema.items;
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items) && items?.generic?.default !== undefined) {
        x[i] = deepCopy(items.generic.default);
      }
      applyDefaults(x[i], items);
    }
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of Object.entries(schema.properties ?? {})) {
    const def = prop.generic?.default;
    if (def === undefined) continue;
    if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = deepCopy(def);
  }
  const additional = schema.generic?.additionalProperties?.structural;
  for (const k of Object.keys(x)) {
    const prop = schema.properties?.[k];
    if (prop) applyDefaults(x[k], prop);
    else if (schema.generic?.additionalProperties) {
      if (isNonNullableNull(x[k], additional) && additional?.generic?.default !== undefined) {
        x[k] = deepCopy(additional.generic.default);
      }
      applyDefaults(x[k], additional);
    }
  }
}

/** The schema of field `k` of an object with schema `s` (a property or additionalProperties). */
function fieldSchema(k: string, s: Structural | undefined): Structural | undefined {
  if (!s) return undefined;
  return s.properties?.[k] ?? s.generic?.additionalProperties?.structural;
}

/**
 * Remove nulls the schema does not allow (not `nullable`) and has no default for, in place,
 * recursively (upstream PruneNonNullableNullsWithoutDefaults). Fields without a schema keep
 * their nulls.
 */
export function pruneNonNullableNulls(x: unknown, schema: Structural | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNulls(v, schema?.items);
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const s = fieldSchema(k, schema);
    if (x[k] === null && s !== undefined && !s.generic?.nullable && s.generic?.default === undefined) delete x[k];
    else pruneNonNullableNulls(x[k], s);
  }
}
