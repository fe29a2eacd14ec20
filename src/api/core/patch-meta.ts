/**
 * Strategic-merge-patch and server-side-apply metadata of a kind as one tree (`PatchMeta`),
 * derived from the kind's zod schema: each list, map and struct declares its facts beside the
 * field (schema-kit's `mergedList`, `setList`, `atomic`; recorded by patch-info.ts), exactly as
 * upstream's struct tags say (k8s.io/api core/v1 types.go 1.10 `patchStrategy` /
 * `patchMergeKey`; today's `+listType`, `+listMapKey`, `+mapType`, `+structType`, key
 * `+default`s where they differ from what the merge strategy implies). Lists that declare
 * nothing are replaced as a whole (atomic); objects are granular.
 *
 * Strategic merge (http/patch) reads `merge` and `retainKeys`; `api/apply/type-info.ts` reads
 * the server-side apply facts; OpenAPI (`api/openapi-schema.ts`) publishes both. Pure; no I/O.
 */
import type { z } from 'zod';
import { strictObjectMeta } from '../meta-schema.js';
import { infoOf, itemsOf, shapeOf, unwrapped, type PatchInfo } from './patch-info.js';
import { podSpec } from './pod-spec.js';

export type { PatchInfo } from './patch-info.js';

/** Patch metadata of one field: its own facts, nested fields for objects, items for lists and maps. */
export interface PatchMeta extends PatchInfo {
  /** Metadata of the fields of an object value. */
  readonly fields?: Readonly<Record<string, PatchMeta>>;
  /** Metadata of the elements of a list, or of the values of a map. */
  readonly items?: PatchMeta;
}

/** The metadata below and at `schema`, or undefined when nothing there declares any. */
function derive(schema: z.ZodType): PatchMeta | undefined {
  const shape = shapeOf(schema);
  const inner = itemsOf(schema);
  let fields: Record<string, PatchMeta> | undefined;
  let items: PatchMeta | undefined;
  if (shape) {
    for (const [name, field] of Object.entries(shape)) {
      const meta = derive(field);
      if (meta) (fields ??= {})[name] = meta;
    }
  } else if (inner) items = derive(inner);
  const node: PatchMeta = { ...infoOf(schema), ...(fields ? { fields } : {}), ...(items ? { items } : {}) };
  return Object.keys(node).length > 0 ? node : undefined;
}

/** The patch metadata tree of `schema` (a kind's, or any part of one), from what its fields declare. */
export function patchMetaOf(schema: z.ZodType): PatchMeta {
  return derive(schema) ?? {};
}

/** ObjectMeta's metadata (derived). */
export const objectMetaPatch: PatchMeta = patchMetaOf(strictObjectMeta);

/** PodSpec's metadata (derived), for tests of the patch code. */
export const podSpecPatch: PatchMeta = patchMetaOf(podSpec);

/**
 * The metadata of an object whose only described field is `metadata`, with `fields` added
 * (the resource table's default for a row that names none, and a short form for tests). A
 * kind's own metadata is `patchMetaOf(schema)`.
 */
export function kindPatch(fields: Readonly<Record<string, PatchMeta>> = {}): PatchMeta {
  return { fields: { metadata: objectMetaPatch, ...fields } };
}

/**
 * Paths of `meta` that `schema` does not have, as `path: problem` strings (empty when every
 * one is there): a named field the object lacks, items of a value that is not a list or map,
 * list facts on a value that is not a list, a merge key that is not a field of the items. For
 * metadata written by hand (tests, and any a row states itself) against the kind's schema.
 */
export function patchMetaProblems(schema: z.ZodType, meta: PatchMeta, path = ''): string[] {
  const t = unwrapped(schema);
  const shape = shapeOf(t);
  const inner = itemsOf(t);
  const at = path || '(root)';
  const problems: string[] = [];
  const isList = t.def.type === 'array';
  if ((meta.merge || meta.retainKeys || meta.listType || meta.listMapKeys || meta.keyDefaults) && !isList)
    problems.push(`${at}: list facts on a ${t.def.type}`);
  if (meta.mapType && t.def.type !== 'object' && t.def.type !== 'record')
    problems.push(`${at}: a map type on a ${t.def.type}`);
  if (isList) {
    const itemShape = inner ? shapeOf(inner) : undefined;
    for (const key of [...(meta.merge?.key !== undefined ? [meta.merge.key] : []), ...(meta.listMapKeys ?? [])]) {
      if (!itemShape || !Object.hasOwn(itemShape, key))
        problems.push(`${at}: merge key ${key} is not a field of the items`);
    }
  }
  for (const [name, child] of Object.entries(meta.fields ?? {})) {
    const field = shape?.[name];
    if (field && Object.hasOwn(shape ?? {}, name))
      problems.push(...patchMetaProblems(field, child, path ? `${path}.${name}` : name));
    else problems.push(`${path ? `${path}.${name}` : name}: no such field`);
  }
  if (meta.items) {
    if (inner) problems.push(...patchMetaProblems(inner, meta.items, `${path}${isList ? '[]' : '{}'}`));
    else problems.push(`${at}: items of a ${t.def.type}`);
  }
  return problems;
}
