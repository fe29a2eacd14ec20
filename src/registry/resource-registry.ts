/**
 * The set of GenericStores built from the resource table, found by (group, version, plural).
 * Definitions that share a storage prefix (SCC in two groups) share one storage.
 */
import type { ApiObject } from '../api/object.js';
import type { ObjectStorage } from '../storage/types.js';
import { GenericStore } from './generic-store.js';
import { apiVersionOf, type ResourceDefinition } from './types.js';

export class ResourceRegistry {
  private readonly byPath = new Map<string, GenericStore>();
  /** `<apiVersion>/<kind>` of every kind the table serves, its subresources' views included. */
  private readonly kinds = new Set<string>();

  constructor(
    readonly definitions: readonly ResourceDefinition[],
    storage: ObjectStorage,
  ) {
    for (const def of definitions) {
      this.byPath.set(pathKey(def.group, def.version, def.plural), new GenericStore(def, storage));
      this.kinds.add(`${apiVersionOf(def)}/${def.kind}`);
      for (const sub of def.subresources) {
        this.kinds.add(`${sub.apiVersion ?? apiVersionOf(def)}/${sub.kind}`);
        for (const v of sub.acceptedVersions ?? []) this.kinds.add(`${v}/${sub.kind}`);
      }
    }
  }

  /** Whether some resource of the table is of `kind` in `apiVersion` (upstream: the scheme knows the kind). */
  servesKind(apiVersion: string, kind: string): boolean {
    return this.kinds.has(`${apiVersion}/${kind}`);
  }

  /** The store serving `resource` in group/version, or undefined. */
  lookup(group: string, version: string, resource: string): GenericStore | undefined {
    return this.byPath.get(pathKey(group, version, resource));
  }

  /**
   * The store of `def`, typed by it: `of(pods)` is a GenericStore<Pod>. Throws if the table
   * lacks the resource (a programming error).
   */
  of<T extends ApiObject>(def: ResourceDefinition<T>): GenericStore<T> {
    const store = this.find(def);
    if (!store) throw new Error(`no ${def.plural} in ${def.group || 'core'}/${def.version} of the resource table`);
    return store;
  }

  /** The store of `def`, typed by it, or undefined when the table does not serve it. */
  find<T extends ApiObject>(def: ResourceDefinition<T>): GenericStore<T> | undefined {
    const store = this.byPath.get(pathKey(def.group, def.version, def.plural));
    if (!store || store.def.kind !== def.kind) return undefined;
    // The store was built from the row serving this path and kind: the one conversion to its type.
    return store as GenericStore<T>;
  }

  /** The core/v1 store of `resource` (throws if the table lacks it: a programming error). */
  core(resource: string): GenericStore {
    const store = this.lookup('', 'v1', resource);
    if (!store) throw new Error(`no core/v1 resource ${resource} in the resource table`);
    return store;
  }

  /** Every store, in table order. */
  all(): GenericStore[] {
    return [...this.byPath.values()];
  }
}

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}
