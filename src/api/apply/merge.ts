/**
 * Merge an applied configuration onto a live object (structured-merge-diff `typed/merge.go`
 * with the "keep right-hand side" rule, i.e. `TypedValue.Merge`).
 *
 * - scalars, nulls, values of different kinds, atomic lists and atomic maps: the config wins,
 *   except that a null over a non-empty granular map or list leaves it as it is;
 * - granular maps and structs: union of fields, merged field by field;
 * - map and set lists: union of items by key (or value), items present on both sides merged;
 *   the result keeps the config's order for its items and slots live-only items where
 *   upstream does (before the next shared item).
 * Inputs must be valid typed values (see typedProblems): items without a key are skipped.
 * Pure; the inputs are not modified.
 */
import { elementId, itemElements } from './list-items.js';
import { fieldInfo, isAtomicMap, itemInfo, listInfo, type TypeInfo } from './type-info.js';
import { isList, isMap, type Json } from '../json.js';

type Kind = 'list' | 'map' | 'scalar' | 'null';

function kindOf(v: Json): Kind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return isMap(v) ? 'map' : 'scalar';
}

/** `lhs` (live) merged with `rhs` (config); undefined for absent on both sides. */
export function mergeValues(lhs: Json | undefined, rhs: Json | undefined, meta: TypeInfo): Json | undefined {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  // A null configuration value over a granular, non-empty map or list is no value at all
  // (upstream reads it as a nil map or list and keeps the live items).
  if (rhs === null && !isEmptyOrAtomic(lhs, meta)) return lhs;
  const kind = kindOf(rhs);
  if (kind !== kindOf(lhs) || kind === 'null' || kind === 'scalar') return rhs;
  if (isList(lhs) && isList(rhs)) {
    if (listInfo(meta).type === 'atomic' || (lhs.length === 0 && rhs.length === 0)) return rhs;
    return mergeLists(lhs, rhs, meta);
  }
  if (!isMap(lhs) || !isMap(rhs)) return rhs;
  const l = lhs;
  const r = rhs;
  if (isAtomicMap(meta) || (Object.keys(l).length === 0 && Object.keys(r).length === 0)) return rhs;
  const out: Record<string, Json> = {};
  for (const k of Object.keys(l)) {
    const v = mergeValues(l[k], Object.hasOwn(r, k) ? r[k] : undefined, fieldInfo(meta, k));
    if (v !== undefined) out[k] = v;
  }
  for (const k of Object.keys(r)) {
    if (Object.hasOwn(l, k)) continue;
    const v = mergeValues(undefined, r[k], fieldInfo(meta, k));
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function isEmptyOrAtomic(v: Json, meta: TypeInfo): boolean {
  if (Array.isArray(v)) return v.length === 0 || listInfo(meta).type === 'atomic';
  if (isMap(v)) return Object.keys(v).length === 0 || isAtomicMap(meta);
  return true;
}

interface Indexed {
  /** Element ids in list order (live lists keep duplicates). */
  readonly ids: string[];
  /** id -> item; a duplicated live item maps to null, as upstream. */
  readonly observed: Map<string, Json>;
  /** Index in the list of each position of `ids`. */
  readonly at: number[];
}

function index(list: readonly Json[], meta: TypeInfo, allowDuplicates: boolean): Indexed {
  const pes = itemElements(list, listInfo(meta));
  const ids: string[] = [];
  const at: number[] = [];
  const observed = new Map<string, Json>();
  pes.forEach((pe, i) => {
    if (!pe) return;
    const id = elementId(pe);
    if (observed.has(id)) {
      if (!allowDuplicates) return;
      observed.set(id, null);
    } else observed.set(id, list[i]);
    ids.push(id);
    at.push(i);
  });
  return { ids, observed, at };
}

/** upstream mergingWalker.visitListItems, step for step. */
function mergeLists(lhs: readonly Json[], rhs: readonly Json[], meta: TypeInfo): Json[] {
  const item = itemInfo(meta);
  const r = index(rhs, meta, false);
  const l = index(lhs, meta, true);
  const out: Json[] = [];
  const push = (v: Json | undefined) => {
    if (v !== undefined) out.push(v);
  };
  const shared = r.ids.filter((id) => l.observed.has(id));
  let nextShared: string | undefined = shared.shift();
  const mergedRhs = new Set<string>();
  let li = 0;
  let ri = 0;
  while (li < l.ids.length || ri < r.ids.length) {
    if (li < l.ids.length && ri < r.ids.length) {
      const id = l.ids[li];
      if (id === r.ids[ri]) {
        mergedRhs.add(id);
        push(mergeValues(l.observed.get(id), r.observed.get(id), item));
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (r.observed.has(id) && nextShared !== undefined && nextShared !== id) {
        li++;
        continue;
      }
    }
    if (li < l.ids.length) {
      const id = l.ids[li];
      if (!r.observed.has(id)) {
        push(mergeValues(lhs[l.at[li]], undefined, item));
        li++;
        continue;
      } else if (mergedRhs.has(id)) li++;
    }
    if (ri < r.ids.length) {
      const id = r.ids[ri];
      mergedRhs.add(id);
      push(mergeValues(l.observed.get(id), r.observed.get(id), item));
      ri++;
      if (nextShared === id) nextShared = shared.shift();
    }
  }
  return out;
}
