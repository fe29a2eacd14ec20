/**
 * Helpers that build resource-table rows with upstream defaults, so each `resources/<kind>`
 * file states only what is particular to its kind.
 */
import { patchMetaOf } from '../api/core/patch-meta.js';
import { isDeepStrictEqual } from 'node:util';
import { objectSchema } from '../api/meta-schema.js';
import { DEFAULT_PRINTER } from '../api/table.js';
import type { ApiObject } from '../api/object.js';
import type { z } from 'zod';
import {
  ALL_VERBS,
  type KindObject,
  type ResourceDefinition,
  type Strategy,
  type SubresourceDefinition,
} from '../registry/types.js';

type Named = 'kind' | 'plural' | 'namespaced';

/**
 * What a kind's file states: its names and whatever differs from the defaults, with a strategy,
 * printer, field set and subresources typed by its schema (they receive {@link KindObject} of
 * `schema`, not casts).
 */
export type ResourceSpec<S extends z.ZodType> = Pick<ResourceDefinition<KindObject<S>>, Named> &
  Partial<Omit<ResourceDefinition<KindObject<S>>, Named | 'schema'>> & { schema?: S };

/**
 * A core/v1 definition with all verbs, storage prefix = plural, singular = lower-case kind,
 * typed by its schema: its store hands out KindObject of `schema` (see ResourceRegistry.of).
 */
export function defineResource<S extends z.ZodType = z.ZodType>(
  def: ResourceSpec<S>,
): ResourceDefinition<KindObject<S>> {
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
    // Strategic merge and server-side apply metadata, from what the schema declares beside its fields.
    patchMeta: patchMetaOf(def.schema ?? objectSchema()),
    printer: DEFAULT_PRINTER,
    protobuf: {},
    ...def,
    strategy: def.strategy ?? {},
  };
}

/** The `status` subresource: writes through it change only `status` (upstream StatusStrategy). */
export function statusSubresource<T extends ApiObject>(kind: string): SubresourceDefinition<T> {
  return {
    name: 'status',
    kind,
    verbs: ['get', 'patch', 'update'],
    merge: (requested, old) => ({
      ...old,
      metadata: mergeMetaForSubresource(requested, old),
      status: requested.status,
    }),
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

/**
 * Strategy part for kinds whose `metadata.generation` counts changes of what they ask for
 * (upstream's workload strategies, e.g. pkg/registry/apps/deployment/strategy.go): 1 on
 * create, +1 on an update that changes `spec`, or any of `alsoFields` (a Deployment's
 * `metadata.annotations`, given as a dotted path). Status writes keep it (their subresource
 * does not run the main strategy).
 */
export function specGeneration(...alsoFields: string[]): Pick<Strategy, 'prepareForCreate' | 'prepareForUpdate'> {
  const at = (obj: ApiObject, path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), obj);
  return {
    prepareForCreate(obj: ApiObject) {
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj: ApiObject, old: ApiObject) {
      const generation = old.metadata.generation ?? 0;
      const changed = ['spec', ...alsoFields].some((f) => !isDeepStrictEqual(at(obj, f) ?? null, at(old, f) ?? null));
      obj.metadata.generation = changed ? generation + 1 : generation;
    },
  };
}
