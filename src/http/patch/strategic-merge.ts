/**
 * Strategic merge patch (upstream k8s.io/apimachinery pkg/util/strategicpatch): maps merge
 * recursively and `null` deletes; lists merge by their merge key or as sets when the type says
 * so, and are replaced otherwise. Directives: `$patch: replace | merge | delete` (in maps and as
 * list elements), `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`.
 * Lists merge in time linear in their lengths (elements are found through an index by merge
 * key), so a 3 MiB patch list cannot stall the server; recursion follows the patch's nesting,
 * which the decoder bounds (api/nesting.ts).
 */
import type { PatchMeta } from '../../api/core/patch-meta.js';
import { isRecord } from '../../api/json.js';
import { setOwn } from '../../api/object.js';
import { badRequest } from '../../errors/api-error.js';

/** A JSON object of the original or the patch. */
type Fields = Record<string, unknown>;

const DELETE = Symbol('delete');
const SET_ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';

const isDirective = (k: string) =>
  k === '$patch' || k === '$retainKeys' || k.startsWith(SET_ORDER) || k.startsWith(DELETE_FROM);

/** A value for an error message, cut to a readable length. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** Apply `patch` to `original` under `meta`. Throws ApiError 400 for malformed directives. */
export function strategicMerge(original: unknown, patch: unknown, meta?: PatchMeta): unknown {
  const out = mergeValue(original, patch, meta);
  return out === DELETE ? {} : out;
}

function mergeValue(original: unknown, patch: unknown, meta?: PatchMeta): unknown {
  if (isRecord(patch)) return mergeMap(isRecord(original) ? original : {}, patch, meta);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, meta);
  return patch;
}

/** A patch value with every directive removed (for values that replace or are added). */
function clean(value: Fields, meta?: PatchMeta): Fields;
function clean(value: unknown[], meta?: PatchMeta): unknown[];
function clean(value: unknown, meta?: PatchMeta): unknown;
function clean(value: unknown, meta?: PatchMeta): unknown {
  if (Array.isArray(value)) return value.filter((v) => !(isRecord(v) && v.$patch)).map((v) => clean(v, meta?.items));
  if (!isRecord(value)) return value;
  const out: Fields = {};
  for (const [k, v] of Object.entries(value))
    if (!isDirective(k) && v !== null) setOwn(out, k, clean(v, meta?.fields?.[k]));
  return out;
}

function mergeMap(original: Fields, patch: Fields, meta?: PatchMeta): Fields | typeof DELETE {
  switch (patch.$patch) {
    case undefined:
    case 'merge':
      break;
    case 'replace':
      return clean(patch, meta);
    case 'delete':
      return DELETE;
    default:
      throw badRequest(`Unknown patch type: ${shown(patch.$patch)} in map: ${shown(patch)}`);
  }
  let result: Fields = { ...original };
  if (patch.$retainKeys !== undefined) {
    if (!Array.isArray(patch.$retainKeys)) throw badRequest('$retainKeys must be a list of field names');
    const keep = new Set<unknown>(patch.$retainKeys);
    result = Object.fromEntries(Object.entries(result).filter(([k]) => keep.has(k)));
  }
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const fieldMeta = meta?.fields?.[key];
    const current = result[key];
    // A struct declared `patchStrategy:"replace"` takes the patch's value whole (upstream mergeMapHandler).
    const merged = Array.isArray(value)
      ? mergeList(Array.isArray(current) ? current : [], value, fieldMeta, patch[SET_ORDER + key])
      : fieldMeta?.replace && isRecord(value)
        ? clean(value, fieldMeta)
        : mergeValue(current, value, fieldMeta);
    if (merged === DELETE) delete result[key];
    else setOwn(result, key, merged);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      if (!Array.isArray(value)) throw badRequest(`${key} must be a list`);
      const gone = new Set(value);
      const list = result[field];
      if (Array.isArray(list))
        setOwn(
          result,
          field,
          list.filter((v) => !gone.has(v)),
        );
    } else if (key.startsWith(SET_ORDER) && !Object.hasOwn(patch, key.slice(SET_ORDER.length))) {
      const field = key.slice(SET_ORDER.length);
      const list = result[field];
      if (Array.isArray(list)) setOwn(result, field, reorder(list, value, meta?.fields?.[field]?.merge?.key));
    }
  }
  return result;
}

function mergeList(original: unknown[], patch: unknown[], meta?: PatchMeta, order?: unknown): unknown[] {
  if (!meta?.merge) return clean(patch, meta);
  const key = meta.merge.key;
  if (patch.some((p) => isRecord(p) && p.$patch === 'replace')) return clean(patch, meta);
  const result = key === undefined ? mergeSet(original, patch) : mergeByKey(original, patch, key, meta.items);
  return order === undefined ? result : reorder(result, order, key);
}

/** A list of primitives merged as a set: patch values not yet present are appended. */
function mergeSet(original: unknown[], patch: unknown[]): unknown[] {
  const result = [...original];
  const present = new Set(original);
  for (const v of patch) {
    if (present.has(v)) continue;
    present.add(v);
    result.push(v);
  }
  return result;
}

/**
 * A list of maps merged by `key`: a patch element merges into the first element with its key
 * (or is appended), `$patch: delete` removes every element with its key.
 */
function mergeByKey(original: unknown[], patch: unknown[], key: string, items?: PatchMeta): unknown[] {
  const GONE = Symbol('gone');
  const slots: unknown[] = [...original];
  const at = new Map<unknown, number[]>(); // merge key value -> slots holding it, in order
  original.forEach((el, i) => {
    if (!isRecord(el)) return;
    const held = at.get(el[key]);
    if (held) held.push(i);
    else at.set(el[key], [i]);
  });
  for (const p of patch) {
    if (!isRecord(p)) throw badRequest(`list elements must be maps with the merge key "${key}"`);
    if (!Object.hasOwn(p, key)) throw badRequest(`map: ${shown(p)} does not contain declared merge key: ${key}`);
    const id = p[key];
    const held = at.get(id) ?? [];
    if (p.$patch === 'delete') {
      for (const i of held) slots[i] = GONE;
      at.delete(id);
      continue;
    }
    const first = held[0];
    const slot = first !== undefined ? slots[first] : undefined;
    const merged = mergeMap(isRecord(slot) ? slot : {}, p, items);
    if (merged === DELETE) {
      if (first === undefined) continue;
      slots[first] = GONE;
      held.shift();
    } else if (first !== undefined) slots[first] = merged;
    else {
      at.set(id, [slots.length]);
      slots.push(merged);
    }
  }
  return slots.filter((s) => s !== GONE);
}

/**
 * Order a list by `$setElementOrder`: listed items first, in the listed order; items the
 * order does not name keep their relative order after them.
 */
function reorder(list: unknown[], order: unknown, key?: string): unknown[] {
  if (!Array.isArray(order)) throw badRequest('$setElementOrder must be a list');
  const idOf = (v: unknown) => (key !== undefined && isRecord(v) ? v[key] : v);
  const rank = new Map(order.map((o, i) => [idOf(o), i]));
  const listed = list.filter((v) => rank.has(idOf(v))).sort((a, b) => rank.get(idOf(a))! - rank.get(idOf(b))!);
  return [...listed, ...list.filter((v) => !rank.has(idOf(v)))];
}
