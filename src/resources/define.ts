/**
 * Helpers that build resource-table rows with upstream defaults, so each `resources/<kind>`
 * file states only what is particular to its kind.
 */
import { kindPatch } from '../api/core/patch-meta.js';
import { objectSchema } from '../api/meta-schema.js';
import { DEFAULT_PRINTER, type TablePrinter } from '../api/table.js';
import type { ApiObject } from '../api/object.js';
import type { z } from 'zod';
import { ALL_VERBS, type KindObject, type ResourceDefinition, type Strategy, type SubresourceDefinition } from '../registry/types.js';

type Required = Pick<ResourceDefinition, 'kind' | 'plural' | 'namespaced'>;

/**
 * What a kind's file states: its names and whatever differs from the defaults, with a strategy,
 * printer and field set typed by its schema (they receive {@link KindObject} of `schema`, not
 * casts).
 */
export type ResourceSpec<S extends z.ZodType> = Required &
  Partial<Omit<ResourceDefinition, 'schema' | 'strategy' | 'printer' | 'fieldSet'>> & {
    schema?: S;
    strategy?: Strategy<KindObject<S>>;
    printer?: TablePrinter<KindObject<S>>;
    fieldSet?: (obj: KindObject<S>) => Record<string, string>;
  };

/** A core/v1 definition with all verbs, storage prefix = plural, singular = lower-case kind. */
export function defineResource<S extends z.ZodType = z.ZodType>(def: ResourceSpec<S>): ResourceDefinition {
  return {
    group: '',
    version: 'v1',
    singular: def.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    storagePrefix: def.plural,
    verbs: ALL_VERBS,
    subresources: [],
    schema: objectSchema(),
    patchMeta: kindPatch(),
    printer: DEFAULT_PRINTER,
    protobuf: {},
    // The one conversion from the kind's types to the table's ApiObject ones: the store only
    // hands a row's strategy, printer and field set objects of the row's kind, decoded and
    // checked against its schema.
    ...(def as Required & Partial<ResourceDefinition>),
    strategy: (def.strategy ?? {}) as Strategy,
  };
}

/** The `status` subresource: writes through it change only `status` (upstream StatusStrategy). */
export function statusSubresource(kind: string): SubresourceDefinition {
  return {
    name: 'status',
    kind,
    verbs: ['get', 'patch', 'update'],
    merge: (requested, old) => ({ ...old, metadata: mergeMetaForSubresource(requested, old), status: requested.status }),
  };
}

/**
 * Strategy part for kinds with a status subresource: the main resource keeps the stored status
 * on update (upstream PrepareForUpdate `newObj.Status = oldObj.Status`).
 */
export const keepStatusOnUpdate: Pick<Strategy, 'prepareForUpdate'> = {
  prepareForUpdate(obj: ApiObject, old: ApiObject) {
    if (old.status === undefined) delete obj.status;
    else obj.status = old.status;
  },
};

/** A subresource write keeps the stored metadata except the resourceVersion used as precondition. */
export function mergeMetaForSubresource(requested: ApiObject, old: ApiObject): ApiObject['metadata'] {
  return { ...old.metadata, resourceVersion: requested.metadata?.resourceVersion };
}
