/**
 * Server-side apply's view of a kind's type: for each list its list type (`atomic`, `set`, or
 * `map` with its key fields and their defaults), for each map or struct whether it is
 * `atomic` or `granular`. One source: the patch metadata the kind's schema declares beside
 * each field (schema-kit's `mergedList`, `setList`, `atomic`), as `api/core/patch-meta.ts`
 * derives it into a PatchMeta tree, read the way k8s.io/kube-openapi `schemaconv` reads a
 * schema without SSA tags: a list with `patchStrategy: merge` and a merge key is a map list
 * keyed by it, a keyless merged list is a set, any other list is atomic; objects are granular
 * structs. Explicit SSA facts on a node (`listType`, `listMapKeys`, `keyDefaults`, `mapType`) win.
 *
 * Also derives what OpenAPI publishes (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`,
 * `x-kubernetes-map-type`) and checks that strategic-merge and SSA facts agree. Pure; no I/O.
 */
import type { PatchMeta } from '../core/patch-meta.js';
import type { Json } from './value.js';

/** The type information of one node of a kind (the kind's PatchMeta, or a node below it). */
export type TypeInfo = PatchMeta | undefined;

export type ListType = 'atomic' | 'set' | 'map';

/** How a list merges under server-side apply. */
export interface ListInfo {
  readonly type: ListType;
  /** Key fields of a `map` list, in tag order (empty otherwise). */
  readonly keys: readonly string[];
  /** Values used for key fields an item omits. */
  readonly keyDefaults: Readonly<Record<string, Json>>;
}

const ATOMIC: ListInfo = { type: 'atomic', keys: [], keyDefaults: {} };
const SET: ListInfo = { type: 'set', keys: [], keyDefaults: {} };

/** The list type of a list node: explicit `listType`, else derived from its merge strategy. */
export function listInfo(meta: TypeInfo): ListInfo {
  const type = meta?.listType ?? (meta?.merge ? (meta.merge.key !== undefined ? 'map' : 'set') : 'atomic');
  if (type === 'atomic') return ATOMIC;
  if (type === 'set') return SET;
  const keys = meta?.listMapKeys ?? (meta?.merge?.key !== undefined ? [meta.merge.key] : []);
  return { type, keys, keyDefaults: meta?.keyDefaults ?? {} };
}

/** True when a map or struct node is atomic (owned and replaced as one value). */
export function isAtomicMap(meta: TypeInfo): boolean {
  return meta?.mapType === 'atomic';
}

/** The type information of field `name` of an object node (a described field, else the map's values). */
export function fieldInfo(meta: TypeInfo, name: string): TypeInfo {
  return meta?.fields?.[name] ?? meta?.items;
}

/** The type information of the items of a list node. */
export function itemInfo(meta: TypeInfo): TypeInfo {
  return meta?.items;
}

/**
 * True when `name` is a named field of a struct rather than a key of a free-form map: an object
 * node is a map only when its metadata describes values (`items`) and does not name the field.
 */
export function isNamedField(meta: TypeInfo, name: string): boolean {
  if (meta?.fields && Object.hasOwn(meta.fields, name)) return true;
  return meta?.items === undefined;
}

/** The SSA extensions OpenAPI publishes on one schema node. */
export interface SsaExtensions {
  'x-kubernetes-list-type'?: ListType;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
}

/**
 * The SSA extensions of one node, given whether its schema is a list: list type (and keys)
 * for described lists, `x-kubernetes-map-type` for maps and structs that state one. Lists
 * without metadata publish nothing (atomic by default, as upstream's untagged lists).
 */
export function ssaExtensions(meta: TypeInfo, isList: boolean): SsaExtensions {
  if (!meta) return {};
  if (isList) {
    if (!meta.merge && !meta.listType) return {};
    const info = listInfo(meta);
    return info.type === 'map'
      ? { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [...info.keys] }
      : { 'x-kubernetes-list-type': info.type };
  }
  return meta.mapType ? { 'x-kubernetes-map-type': meta.mapType } : {};
}

/**
 * Every SSA extension of a kind, by field path (`spec.containers`, `spec.containers[].ports`,
 * `metadata.finalizers`), for OpenAPI: a node with `merge`, `listType` or `listMapKeys` is a
 * list, any other described node an object.
 */
export function openApiListTypes(kindMeta: PatchMeta): Record<string, SsaExtensions> {
  const out: Record<string, SsaExtensions> = {};
  const walk = (meta: PatchMeta, path: string) => {
    const isList = meta.merge !== undefined || meta.listType !== undefined || meta.listMapKeys !== undefined;
    const ext = ssaExtensions(meta, isList);
    if (path && Object.keys(ext).length > 0) out[path] = ext;
    for (const [name, child] of Object.entries(meta.fields ?? {})) walk(child, path ? `${path}.${name}` : name);
    if (meta.items) walk(meta.items, isList ? `${path}[]` : `${path}{}`);
  };
  walk(kindMeta, '');
  return out;
}

/**
 * Disagreements between a kind's strategic-merge and SSA facts, as `path: problem` strings
 * (empty when they agree): a list merged by key and typed map has that key among its keys, a
 * keyless merged list is not a map, a list typed by its merge strategy alone agrees with it;
 * list-map keys and key defaults only on map lists, defaults only for key fields. An explicit
 * `+listType` that differs from the patch strategy is upstream's choice and is kept (1.33:
 * Job `status.conditions` merged by type but atomic, `status.hostIPs` merged by ip but atomic,
 * `resources.claims` a map list that strategic merge replaces).
 */
export function listTypeProblems(kindMeta: PatchMeta): string[] {
  const problems: string[] = [];
  const walk = (meta: PatchMeta, path: string) => {
    const isList = meta.merge !== undefined || meta.listType !== undefined || meta.listMapKeys !== undefined;
    if (isList) {
      const info = listInfo(meta);
      const key = meta.merge?.key;
      const declared = meta.listType !== undefined;
      if (meta.merge && key !== undefined && info.type === 'map' && !info.keys.includes(key))
        problems.push(`${path}: merge key ${key} is not a list-map key`);
      if (meta.merge && key !== undefined && info.type !== 'map' && !declared)
        problems.push(`${path}: merge key ${key} is not a list-map key`);
      if (meta.merge && key === undefined && info.type === 'map')
        problems.push(`${path}: merged as a set but list type ${info.type}`);
      if (meta.merge && key === undefined && info.type !== 'set' && !declared)
        problems.push(`${path}: merged as a set but list type ${info.type}`);
      if (!meta.merge && info.type !== 'atomic' && !declared)
        problems.push(`${path}: not merged but list type ${info.type}`);
      if (info.type === 'map' && info.keys.length === 0) problems.push(`${path}: map list without keys`);
    }
    if (meta.listMapKeys && listInfo(meta).type !== 'map')
      problems.push(`${path}: list-map keys on a ${listInfo(meta).type} list`);
    for (const k of Object.keys(meta.keyDefaults ?? {}))
      if (!listInfo(meta).keys.includes(k)) problems.push(`${path}: default for ${k}, not a key`);
    for (const [name, child] of Object.entries(meta.fields ?? {})) walk(child, path ? `${path}.${name}` : name);
    if (meta.items) walk(meta.items, isList ? `${path}[]` : `${path}{}`);
  };
  walk(kindMeta, '');
  return problems;
}
