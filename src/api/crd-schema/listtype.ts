/**
 * Uniqueness of `x-kubernetes-list-type: set` items and `map` keys, as upstream's
 * apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go
 * (ValidateListSetsAndMaps): each repeated value is reported once, at its second appearance, as
 * `Duplicate value: ...`; a map list's items must be objects (or null).
 */
import type { FieldError } from '../validation/field-errors.js';
import { fieldPath, goDuplicate, goInvalid } from './go-format.js';
import { canonical } from './values.js';
import type { Structural } from './types.js';

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Set and map list errors under `obj` (an object with schema `s`); `path` is the field path prefix. */
export function validateListSetsAndMaps(path: string, s: Structural | undefined, obj: unknown): FieldError[] {
  if (!s || !isObject(obj)) return [];
  const errs: FieldError[] = [];
  const additional = s.generic?.additionalProperties?.structural;
  if (additional) {
    for (const [k, v] of Object.entries(obj)) errs.push(...validateValue(fieldPath.key(path, k), additional, v));
  }
  if (s.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = s.properties[k];
      if (sub) errs.push(...validateValue(fieldPath.child(path, k), sub, v));
    }
  }
  return errs;
}

function validateValue(path: string, s: Structural, v: unknown): FieldError[] {
  if (Array.isArray(v)) return validateArray(path, s, v);
  if (isObject(v)) return validateListSetsAndMaps(path, s, v);
  return [];
}

function validateArray(path: string, s: Structural, list: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s.extensions?.xListType;
  if (listType === 'set') {
    for (const i of nonUnique(list.map((x) => canonical(x)))) errs.push(goDuplicate(fieldPath.index(path, i), list[i]));
  } else if (listType === 'map') {
    errs.push(...validateListMap(path, s, list));
  }
  if (s.items) list.forEach((x, i) => errs.push(...validateValue(fieldPath.index(path, i), s.items!, x)));
  return errs;
}

/** Indices of the second appearance of each repeated key. */
function nonUnique(keys: string[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  keys.forEach((k, i) => {
    const times = seen.get(k) ?? 0;
    if (times === 1) out.push(i);
    seen.set(k, times + 1);
  });
  return out;
}

function validateListMap(path: string, s: Structural, list: unknown[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    if (list[i] !== null && !isObject(list[i])) {
      return [goInvalid(fieldPath.index(path, i), list[i], 'must be an object for an array of list-type map')];
    }
  }
  if (list.length <= 1) return [];
  const keyFields = s.extensions?.xListMapKeys ?? [];
  if (keyFields.length === 1) {
    const [k] = keyFields;
    const keys = list.map((x) => (isObject(x) && k in x ? `v:${canonical(x[k])}` : 'unspecified'));
    return nonUnique(keys).map((i) => {
      const x = list[i];
      return goDuplicate(fieldPath.index(path, i), isObject(x) && k in x ? { [k]: x[k] } : {});
    });
  }
  const keyObjects = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const k of keyFields) if (k in x) key[k] = x[k];
    return key;
  });
  return nonUnique(keyObjects.map((k) => canonical(k))).map((i) =>
    goDuplicate(fieldPath.index(path, i), keyObjects[i]),
  );
}
