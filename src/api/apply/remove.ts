/**
 * Remove a set of fields from a value (structured-merge-diff `typed/remove.go`
 * `TypedValue.RemoveItems`), and the schema-aware set adjustment apply uses before removing
 * (`fieldpath.Set.EnsureNamedFieldsAreMembers`).
 *
 * Removal drops map fields and list items whose path is a member of the set and recurses where
 * the set has paths below; a map or list left with nothing becomes null, as upstream (the final
 * object drops such nulls, see dropNulls). Atomic values are never entered. Pure.
 */
import { FieldSet } from './field-set.js';
import { itemElements } from './list-items.js';
import { fieldElement, type PathElement } from './path.js';
import { fieldInfo, isAtomicMap, isNamedField, itemInfo, listInfo, type TypeInfo } from './type-info.js';
import { isList, isMap, type Json, type JsonMap } from '../json.js';

/** `value` without the fields in `toRemove`. */
export function removeItems(value: Json, toRemove: FieldSet, meta: TypeInfo): Json {
  if (toRemove.empty()) return value;
  if (isList(value)) {
    const list = value;
    const info = listInfo(meta);
    if (list.length === 0 || info.type === 'atomic') return null;
    const out: Json[] = [];
    itemElements(list, info).forEach((pe, i) => {
      let item = list[i];
      if (pe) {
        if (toRemove.hasMember(pe)) return;
        const below = toRemove.withPrefix(pe);
        if (!below.empty()) item = removeItems(item, below, itemInfo(meta));
      }
      out.push(item);
    });
    return out.length > 0 ? out : null;
  }
  if (isMap(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0 || isAtomicMap(meta)) return null;
    const out: Record<string, Json> = {};
    for (const k of keys) {
      const pe = fieldElement(k);
      if (toRemove.hasMember(pe)) continue;
      const below = toRemove.withPrefix(pe);
      out[k] = below.empty() ? value[k] : removeItems(value[k], below, fieldInfo(meta, k));
    }
    return Object.keys(out).length > 0 ? out : null;
  }
  return value;
}

/**
 * `set` with every named struct field that has paths below it also made a member, so that
 * removing the set removes those fields whole (upstream EnsureNamedFieldsAreMembers). Below
 * set members and indices the type is unknown and nothing is added.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, meta: TypeInfo, known = true): FieldSet {
  if (set.empty()) return set;
  const members: PathElement[] = [...set.members];
  const children = set.childEntries().map((c) => {
    const pe = c.pe;
    if (pe.kind === 'field') {
      if (known && isNamedField(meta, pe.name)) members.push(pe);
      return { pe, set: ensureNamedFieldsAreMembers(c.set, fieldInfo(meta, pe.name), known) };
    }
    if (pe.kind === 'key') return { pe, set: ensureNamedFieldsAreMembers(c.set, itemInfo(meta), known) };
    return { pe, set: ensureNamedFieldsAreMembers(c.set, undefined, false) };
  });
  return FieldSet.fromParts(members, children);
}

/**
 * The object as upstream's conversion back to a typed object leaves it: fields whose value is
 * null (unset pointers, nil maps and lists) are dropped; list items are kept as they are.
 */
export function dropNulls(value: JsonMap): JsonMap;
export function dropNulls(value: Json): Json;
export function dropNulls(value: Json): Json {
  if (isList(value)) return value.map((v) => (v === null ? v : dropNulls(v)));
  if (!isMap(value)) return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}
