/**
 * Object storage with a watch cache in front of each cached resource (upstream
 * k8s.io/apiserver pkg/registry/generic/registry/storage_factory.go StorageWithCacher): keys
 * under a cached resource's prefix are served by its Cacher, every other key (resources
 * without a cache, coordination records) by the storage underneath.
 */
import type { ApiObject } from '../../api/object.js';
import type { KvStore } from '../kv/types.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  ObjectStorage,
  ObjectWatchOptions,
  TryUpdate,
  UpdateOptions,
  WatchEvent,
} from '../types.js';
import { Cacher } from './cacher.js';

export class CachingStorage implements ObjectStorage {
  constructor(
    private readonly storage: ObjectStorage,
    readonly cachers: readonly Cacher[],
  ) {}

  get kv(): KvStore {
    return this.storage.kv;
  }

  /** Start every cache's list and watch (they serve once listed; storage serves until then). */
  start(): void {
    for (const c of this.cachers) c.start();
  }

  /** Stop every cache and end its watchers. */
  async stop(): Promise<void> {
    await Promise.all(this.cachers.map((c) => c.stop()));
  }

  fullKey(key: string): string {
    return this.storage.fullKey(key);
  }

  create(key: string, obj: ApiObject, opts?: CreateOptions): Promise<ApiObject> {
    return this.storage.create(key, obj, opts);
  }

  get(key: string, opts?: GetOptions): Promise<ApiObject> {
    return this.pick(key).get(key, opts);
  }

  list(keyPrefix: string, opts?: ListOptions): Promise<ListResult> {
    return this.pick(keyPrefix).list(keyPrefix, opts);
  }

  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<ApiObject> {
    return this.pick(key).guaranteedUpdate(key, tryUpdate, opts);
  }

  delete(key: string, opts?: DeleteOptions): Promise<ApiObject> {
    return this.storage.delete(key, opts);
  }

  watch(key: string, opts: Omit<ObjectWatchOptions, 'fullKey'>): AsyncIterable<WatchEvent> {
    return this.pick(key).watch(key, opts);
  }

  private pick(key: string): ObjectStorage {
    for (const c of this.cachers) if (c.owns(key)) return c;
    return this.storage;
  }
}
