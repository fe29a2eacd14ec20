/**
 * The set of GenericStores built from the resource table, found by (group, version, plural).
 * Definitions that share a storage prefix (SCC in two groups) share one storage. Besides the
 * table's rows, rows may be served and withdrawn at run time by an owner (a
 * CustomResourceDefinition's serving controller), as upstream's apiextensions-apiserver adds
 * and removes its per-CRD storage (crdHandler's crdInfo).
 */
import type { ApiObject } from '../api/object.js';
import type { ObjectStorage } from '../storage/types.js';
import { GenericStore } from './generic-store.js';
import { apiVersionOf, type ResourceDefinition } from './types.js';

/**
 * What the registry tells storage when rows come and go at run time: `added` before a row of a
 * storage prefix first serves (start its watch cache), `removed` once no row of the prefix is
 * left (stop the cache and end its watches).
 */
export interface DynamicStorageHooks {
  added?(def: ResourceDefinition): void;
  removed?(def: ResourceDefinition): void | Promise<void>;
}

export class ResourceRegistry {
  private readonly byPath = new Map<string, GenericStore>();
  /** `<apiVersion>/<kind>` of every kind served, its subresources' views included. */
  private kinds = new Set<string>();
  /** Every row served, the table's first; replaced (never changed) when rows come or go. */
  private rows: readonly ResourceDefinition[];
  /** Rows served at run time, by owner (a CRD's name). */
  private readonly dynamic = new Map<string, readonly ResourceDefinition[]>();
  private readonly listeners = new Set<() => void>();
  private readonly storeListeners: ((store: GenericStore) => void)[] = [];
  /** Paths of the table's rows, which rows served at run time cannot take. */
  private readonly tableKeys: ReadonlySet<string>;

  constructor(
    private readonly table: readonly ResourceDefinition[],
    private readonly storage: ObjectStorage,
    private readonly hooks: DynamicStorageHooks = {},
  ) {
    for (const def of table) this.byPath.set(keyOf(def), new GenericStore(def, def.storageFor?.(storage) ?? storage));
    this.rows = table;
    this.kinds = kindsOf(table);
    this.tableKeys = new Set(table.map(keyOf));
  }

  /**
   * Every served row: the table's, then those served at run time. The array is replaced when
   * rows change, so a cache keyed by it (discovery documents) is never stale.
   */
  get definitions(): readonly ResourceDefinition[] {
    return this.rows;
  }

  /**
   * Serve `defs` for `owner` in place of what it served before (none: withdraw them). A row
   * whose path the table serves is ignored (built-in resources win). Stores of rows that did
   * not change are kept, so their watches go on; a changed row gets a new store over the same
   * storage. Listeners run once the change is in place.
   */
  async serve(owner: string, defs: readonly ResourceDefinition[]): Promise<void> {
    const before = this.dynamic.get(owner) ?? [];
    const next = defs.filter((d) => !this.tableKeys.has(keyOf(d)));
    if (next.length === 0 && before.length === 0) return;
    const prefixesBefore = this.dynamicPrefixes();
    if (next.length) this.dynamic.set(owner, next);
    else this.dynamic.delete(owner);
    const prefixesAfter = this.dynamicPrefixes();
    for (const [prefix, def] of prefixesAfter) if (!prefixesBefore.has(prefix)) this.hooks.added?.(def);
    for (const def of before) if (!next.some((d) => keyOf(d) === keyOf(def))) this.byPath.delete(keyOf(def));
    for (const def of next) {
      if (this.byPath.get(keyOf(def))?.def === def) continue;
      const store = new GenericStore(def, def.storageFor?.(this.storage) ?? this.storage);
      for (const admit of this.storeListeners) admit(store);
      this.byPath.set(keyOf(def), store);
    }
    this.rows = [...this.table, ...[...this.dynamic.values()].flat()];
    this.kinds = kindsOf(this.rows);
    for (const listener of this.listeners) listener();
    for (const [prefix, def] of prefixesBefore) if (!prefixesAfter.has(prefix)) await this.hooks.removed?.(def);
  }

  /**
   * Call `admit` with every store made for a row served at run time, before it serves (the
   * admission plugins that apply to any resource install themselves so).
   */
  onStoreCreated(admit: (store: GenericStore) => void): void {
    this.storeListeners.push(admit);
  }

  /** Call `listener` after every change of the served rows; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether some resource served is of `kind` in `apiVersion` (upstream: the scheme knows the kind). */
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
    const store = this.byPath.get(keyOf(def));
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

  /** Every store, the table's in table order, then those served at run time. */
  all(): GenericStore[] {
    return [...this.byPath.values()];
  }

  /** The storage prefixes of the rows served at run time, each with one of its rows. */
  private dynamicPrefixes(): Map<string, ResourceDefinition> {
    const prefixes = new Map<string, ResourceDefinition>();
    for (const def of [...this.dynamic.values()].flat())
      if (!prefixes.has(def.storagePrefix)) prefixes.set(def.storagePrefix, def);
    return prefixes;
  }
}

function kindsOf(defs: readonly ResourceDefinition[]): Set<string> {
  const kinds = new Set<string>();
  for (const def of defs) {
    kinds.add(`${apiVersionOf(def)}/${def.kind}`);
    for (const sub of def.subresources) {
      kinds.add(`${sub.apiVersion ?? apiVersionOf(def)}/${sub.kind}`);
      for (const v of sub.acceptedVersions ?? []) kinds.add(`${v}/${sub.kind}`);
    }
  }
  return kinds;
}

function keyOf(def: Pick<ResourceDefinition, 'group' | 'version' | 'plural'>): string {
  return pathKey(def.group, def.version, def.plural);
}

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}
