/**
 * Strategic merge patch (upstream k8s.io/apimachinery pkg/util/strategicpatch): maps merge
 * recursively and `null` deletes; lists merge by their merge key or as sets when the type says
 * so, and are replaced otherwise. Directives: `$patch: replace | merge | delete` (in maps and as
 * list elements), `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`.
 */
import type { PatchMeta } from '../../api/core/patch-meta.js';
import { badRequest } from '../../errors/api-error.js';

type Json = Record<string, unknown>;

const DELETE = Symbol('delete');
const SET_ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isDirective = (k: string) => k === '$patch' || k === '$retainKeys' || k.startsWith(SET_ORDER) || k.startsWith(DELETE_FROM);

/** Apply `patch` to `original` under `meta`. Throws ApiError 400 for malformed directives. */
export function strategicMerge(original: unknown, patch: unknown, meta?: PatchMeta): unknown {
  const out = mergeValue(original, patch, meta);
  return out === DELETE ? {} : out;
}

function mergeValue(original: unknown, patch: unknown, meta?: PatchMeta): unknown {
  if (isMap(patch)) return mergeMap(isMap(original) ? original : {}, patch, meta);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, meta);
  return patch;
}

/** A patch value with every directive removed (for values that replace or are added). */
function clean(value: unknown, meta?: PatchMeta): unknown {
  if (Array.isArray(value)) return value.filter((v) => !(isMap(v) && v.$patch)).map((v) => clean(v, meta?.items));
  if (!isMap(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (!isDirective(k) && v !== null) out[k] = clean(v, meta?.fields?.[k]);
  return out;
}

function mergeMap(original: Json, patch: Json, meta?: PatchMeta): Json | typeof DELETE {
  switch (patch.$patch) {
    case undefined:
    case 'merge':
      break;
    case 'replace':
      return clean(patch, meta) as Json;
    case 'delete':
      return DELETE;
    default:
      throw badRequest(`Unknown patch type: ${String(patch.$patch)} in map: ${JSON.stringify(patch)}`);
  }
  let result: Json = { ...original };
  if (patch.$retainKeys !== undefined) {
    if (!Array.isArray(patch.$retainKeys)) throw badRequest('$retainKeys must be a list of field names');
    const keep = new Set(patch.$retainKeys as string[]);
    result = Object.fromEntries(Object.entries(result).filter(([k]) => keep.has(k)));
  }
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const fieldMeta = meta?.fields?.[key];
    const merged = Array.isArray(value)
      ? mergeList(Array.isArray(result[key]) ? (result[key] as unknown[]) : [], value, fieldMeta, patch[SET_ORDER + key])
      : mergeValue(result[key], value, fieldMeta);
    if (merged === DELETE) delete result[key];
    else result[key] = merged;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      if (!Array.isArray(value)) throw badRequest(`${key} must be a list`);
      if (Array.isArray(result[field])) result[field] = (result[field] as unknown[]).filter((v) => !value.includes(v));
    } else if (key.startsWith(SET_ORDER) && !(key.slice(SET_ORDER.length) in patch)) {
      const field = key.slice(SET_ORDER.length);
      if (Array.isArray(result[field])) result[field] = reorder(result[field] as unknown[], value, meta?.fields?.[field]?.merge?.key);
    }
  }
  return result;
}

function mergeList(original: unknown[], patch: unknown[], meta?: PatchMeta, order?: unknown): unknown[] {
  if (!meta?.merge) return clean(patch, meta) as unknown[];
  const key = meta.merge.key;
  if (patch.some((p) => isMap(p) && p.$patch === 'replace')) return clean(patch, meta) as unknown[];
  let result = [...original];
  if (key === undefined) {
    // A list of primitives merged as a set.
    for (const v of patch) if (!result.includes(v)) result.push(v);
  } else {
    for (const p of patch) {
      if (!isMap(p)) throw badRequest(`list elements must be maps with the merge key "${key}"`);
      if (!(key in p)) throw badRequest(`map: ${JSON.stringify(p)} does not contain declared merge key: ${key}`);
      const at = result.findIndex((el) => isMap(el) && el[key] === p[key]);
      if (p.$patch === 'delete') {
        result = result.filter((el) => !(isMap(el) && el[key] === p[key]));
        continue;
      }
      const merged = mergeMap(at >= 0 ? (result[at] as Json) : {}, p, meta.items);
      if (merged === DELETE) {
        if (at >= 0) result.splice(at, 1);
      } else if (at >= 0) result[at] = merged;
      else result.push(merged);
    }
  }
  return order === undefined ? result : reorder(result, order, key);
}

/**
 * Order a list by `$setElementOrder`: listed items first, in the listed order; items the
 * order does not name keep their relative order after them.
 */
function reorder(list: unknown[], order: unknown, key?: string): unknown[] {
  if (!Array.isArray(order)) throw badRequest('$setElementOrder must be a list');
  const idOf = (v: unknown) => (key !== undefined && isMap(v) ? v[key] : v);
  const rank = new Map(order.map((o, i) => [idOf(o), i]));
  const listed = list.filter((v) => rank.has(idOf(v))).sort((a, b) => rank.get(idOf(a))! - rank.get(idOf(b))!);
  return [...listed, ...list.filter((v) => !rank.has(idOf(v)))];
}
