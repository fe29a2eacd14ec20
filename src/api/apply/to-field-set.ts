/**
 * The field set of a value (structured-merge-diff `typed/tofieldset.go` ToFieldSet): which
 * fields an object or applied configuration sets, given its type information.
 *
 * - scalars, nulls, atomic lists and atomic maps are one leaf each;
 * - a map or set list contributes each item (`k:`/`v:`) as a member, and the item's own fields;
 *   duplicated items are members only;
 * - an object contributes its fields; a field is itself a member when its value is null or an
 *   empty object, or when it is a key of a free-form map rather than a named struct field.
 * Items whose key cannot be computed are skipped (typedProblems reports them). Pure; no I/O.
 */
import { FieldSet } from './field-set.js';
import { elementId, itemElements } from './list-items.js';
import { fieldElement, type Path, type PathElement } from './path.js';
import { fieldInfo, isAtomicMap, isNamedField, itemInfo, listInfo, type TypeInfo } from './type-info.js';
import { isList, isMap, type Json } from '../json.js';

/** The set of fields `value` sets. */
export function toFieldSet(value: Json | undefined, meta: TypeInfo): FieldSet {
  const paths: Path[] = [];
  visit(value, meta, [], paths);
  return FieldSet.of(...paths);
}

function visit(value: Json | undefined, meta: TypeInfo, path: PathElement[], out: Path[]): void {
  if (value === undefined) return;
  if (isList(value)) {
    const info = listInfo(meta);
    if (info.type === 'atomic') {
      out.push(path);
      return;
    }
    const list = value;
    const pes = itemElements(list, info);
    const counts = new Map<string, number>();
    for (const pe of pes) if (pe) counts.set(elementId(pe), (counts.get(elementId(pe)) ?? 0) + 1);
    const done = new Set<string>();
    list.forEach((item, i) => {
      const pe = pes[i];
      if (!pe) return;
      const id = elementId(pe);
      if (counts.get(id)! > 1) {
        if (!done.has(id)) out.push([...path, pe]);
        done.add(id);
        return;
      }
      const itemPath = [...path, pe];
      visit(item, itemInfo(meta), itemPath, out);
      out.push(itemPath);
    });
    return;
  }
  if (isMap(value)) {
    if (isAtomicMap(meta)) {
      out.push(path);
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      const childPath = [...path, fieldElement(k)];
      visit(v, fieldInfo(meta, k), childPath, out);
      if (v === null || (isMap(v) && Object.keys(v).length === 0) || !isNamedField(meta, k)) out.push(childPath);
    }
    return;
  }
  out.push(path);
}
