/**
 * The watch caches of the resource table (upstream: a Cacher per resource whose watch cache
 * size is not 0): one per storage prefix of a watchable kind that does not opt out
 * (`watchCache: false`), indexed by the kind's `cacheIndexes`. Kinds served in two groups
 * (one storage prefix) share one cache.
 */
import { Cacher } from '../storage/cacher/cacher.js';
import type { CacherObserver } from '../storage/cacher/observer.js';
import type { ObjectStorage } from '../storage/types.js';
import { fieldSetOf } from './predicate.js';
import type { ResourceDefinition } from './types.js';

/** Build (not start) the cachers of `defs` over `storage`. */
export function cachersFor(
  defs: readonly ResourceDefinition[],
  storage: ObjectStorage,
  observer?: CacherObserver,
): Cacher[] {
  const byPrefix = new Map<string, Cacher>();
  for (const def of defs) {
    if (byPrefix.has(def.storagePrefix)) continue;
    const cacher = cacherFor(def, storage, observer);
    if (cacher) byPrefix.set(def.storagePrefix, cacher);
  }
  return [...byPrefix.values()];
}

/**
 * Build (not start) the cacher of `def`'s storage prefix, or undefined when the kind is not
 * cached (not watchable, or `watchCache: false`).
 */
export function cacherFor(
  def: ResourceDefinition,
  storage: ObjectStorage,
  observer?: CacherObserver,
): Cacher | undefined {
  if (def.watchCache === false || !def.verbs.includes('watch')) return undefined;
  const indexers = Object.fromEntries(
    (def.cacheIndexes ?? []).map((field) => [
      field,
      (obj: Parameters<typeof fieldSetOf>[1]) => fieldSetOf(def, obj)[field] ?? '',
    ]),
  );
  const resource = def.group ? `${def.plural}.${def.group}` : def.plural;
  return new Cacher(storage, { prefix: `${def.storagePrefix}/`, resource, indexers, observer });
}
