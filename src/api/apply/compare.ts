/**
 * Compare two versions of an object (structured-merge-diff `typed/compare.go`
 * `TypedValue.Compare`): the fields added, modified and removed between `lhs` (old) and `rhs`
 * (new), given the type information.
 *
 * - a leaf (scalar, null, atomic list or map, empty list or map) is added, removed, or
 *   modified when its values differ;
 * - a map, struct or list item present on one side only is itself added or removed, with its
 *   fields; values of different kinds are modified (and the fields below them added/removed);
 * - list items are matched by key or value; duplicated items are compared as one leaf.
 * Pure; no I/O.
 */
import { FieldSet } from './field-set.js';
import { elementId, itemElements } from './list-items.js';
import { fieldElement, type Path, type PathElement } from './path.js';
import { fieldInfo, isAtomicMap, itemInfo, listInfo, type TypeInfo } from './type-info.js';
import { equalValues } from './value.js';
import { isList, isMap, type Json, type JsonMap } from '../json.js';

/** The fields that differ between two objects. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Acc {
  added: Path[];
  modified: Path[];
  removed: Path[];
}

/** Compare `lhs` (before) with `rhs` (after). */
export function compareObjects(lhs: Json | undefined, rhs: Json | undefined, meta: TypeInfo): Comparison {
  const acc: Acc = { added: [], modified: [], removed: [] };
  if (lhs !== undefined || rhs !== undefined) walk(lhs, rhs, meta, [], acc);
  return {
    added: FieldSet.of(...acc.added),
    modified: FieldSet.of(...acc.modified),
    removed: FieldSet.of(...acc.removed),
  };
}

type Kind = 'list' | 'map' | 'leaf';

function kindOf(v: Json): Kind {
  if (Array.isArray(v)) return 'list';
  return isMap(v) ? 'map' : 'leaf';
}

/** The kind each side is handled as; null takes the kind of a container on the other side. */
function kindsOf(lhs: Json | undefined, rhs: Json | undefined): Kind[] {
  if (rhs === undefined) return [kindOf(lhs!)];
  const rk = kindOf(rhs);
  if (lhs === undefined) return [rk];
  const lk = kindOf(lhs);
  if (lk === rk || (lhs === null && rk !== 'leaf')) return [rk];
  if (rhs === null && lk !== 'leaf') return [lk];
  return [lk, rk];
}

function walk(lhs: Json | undefined, rhs: Json | undefined, meta: TypeInfo, path: PathElement[], acc: Acc): void {
  const kinds = kindsOf(lhs, rhs);
  let inLeaf = false;
  kinds.forEach((kind, i) => {
    // Upstream handles mismatched kinds twice: first on a copy of the walker, then on itself.
    const leaf = handle(kind, lhs, rhs, meta, path, acc);
    if (i === kinds.length - 1) inLeaf = leaf;
  });
  if (!inLeaf) {
    if (lhs === undefined) acc.added.push(path);
    else if (rhs === undefined) acc.removed.push(path);
  }
}

/** Handle one node as `kind`; true when it was a leaf. */
function handle(
  kind: Kind,
  lhs: Json | undefined,
  rhs: Json | undefined,
  meta: TypeInfo,
  path: PathElement[],
  acc: Acc,
): boolean {
  if (kind === 'list') {
    const l = isList(lhs) ? lhs : undefined;
    const r = isList(rhs) ? rhs : undefined;
    if (listInfo(meta).type === 'atomic' || (!l?.length && !r?.length)) return leaf(lhs, rhs, path, acc);
    compareLists(l ?? [], r ?? [], meta, path, acc);
    return false;
  }
  if (kind === 'map') {
    const l = isMap(lhs) ? lhs : undefined;
    const r = isMap(rhs) ? rhs : undefined;
    const empty = (m?: JsonMap) => !m || Object.keys(m).length === 0;
    if (isAtomicMap(meta) || (empty(l) && empty(r))) return leaf(lhs, rhs, path, acc);
    const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
    for (const k of keys) {
      const lv = l && Object.hasOwn(l, k) ? l[k] : undefined;
      const rv = r && Object.hasOwn(r, k) ? r[k] : undefined;
      walk(lv, rv, fieldInfo(meta, k), [...path, fieldElement(k)], acc);
    }
    return false;
  }
  return leaf(lhs, rhs, path, acc);
}

function leaf(lhs: Json | undefined, rhs: Json | undefined, path: PathElement[], acc: Acc): true {
  if (lhs === undefined) acc.added.push(path);
  else if (rhs === undefined) acc.removed.push(path);
  else if (!equalValues(lhs, rhs)) acc.modified.push(path);
  return true;
}

/** upstream compareWalker.visitListItems. */
function compareLists(lhs: readonly Json[], rhs: readonly Json[], meta: TypeInfo, path: PathElement[], acc: Acc): void {
  const info = listInfo(meta);
  const item = itemInfo(meta);
  const order: PathElement[] = [];
  const group = (list: readonly Json[], seenElsewhere?: Map<string, Json[]>) => {
    const values = new Map<string, Json[]>();
    itemElements(list, info).forEach((pe, i) => {
      if (!pe) return;
      const id = elementId(pe);
      const held = values.get(id);
      if (held) held.push(list[i]);
      else {
        values.set(id, [list[i]]);
        if (!seenElsewhere?.has(id)) order.push(pe);
      }
    });
    return values;
  };
  const lValues = group(lhs);
  const rValues = group(rhs, lValues);
  for (const pe of order) {
    const id = elementId(pe);
    const l = lValues.get(id) ?? [];
    const r = rValues.get(id) ?? [];
    const itemPath = [...path, pe];
    if (l.length <= 1 && r.length <= 1) walk(l[0], r[0], item, itemPath, acc);
    else if (l.length >= 2 && r.length >= 2) {
      if (l.length !== r.length || !l.every((v, i) => equalValues(v, r[i]))) acc.modified.push(itemPath);
    } else if (l.length >= 2) {
      if (r.length) walk(undefined, r[0], item, itemPath, acc);
      acc.removed.push(itemPath);
    } else {
      if (l.length) walk(l[0], undefined, item, itemPath, acc);
      acc.added.push(itemPath);
    }
  }
}
