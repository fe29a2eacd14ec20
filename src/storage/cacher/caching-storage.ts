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
  /** The caches by their relative prefix without the trailing '/' (`pods`, `example.com/widgets`). */
  private readonly byPrefix = new Map<string, Cacher>();
  private started = false;

  constructor(
    private readonly storage: ObjectStorage,
    cachers: readonly Cacher[],
  ) {
    for (const c of cachers) this.byPrefix.set(c.opts.prefix.slice(0, -1), c);
  }

  /** The caches, in the order added. */
  get cachers(): Cacher[] {
    return [...this.byPrefix.values()];
  }

  /**
   * Put `cacher` in front of its prefix (a resource served from now on, a custom resource);
   * started at once when the others are. Its prefix must have at most two segments.
   */
  add(cacher: Cacher): void {
    this.byPrefix.set(cacher.opts.prefix.slice(0, -1), cacher);
    if (this.started) cacher.start();
  }

  /** Stop and remove the cache of `prefix` (without the trailing '/'), ending its watches. */
  async remove(prefix: string): Promise<void> {
    const cacher = this.byPrefix.get(prefix);
    if (!cacher) return;
    this.byPrefix.delete(prefix);
    await cacher.stop();
  }

  get kv(): KvStore {
    return this.storage.kv;
  }

  /** Start every cache's list and watch (they serve once listed; storage serves until then). */
  start(): void {
    this.started = true;
    for (const c of this.byPrefix.values()) c.start();
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

  /** The cache owning `key` (found by its first one or two segments), else storage. */
  private pick(key: string): ObjectStorage {
    const first = key.indexOf('/');
    if (first < 0) return this.storage;
    const one = this.byPrefix.get(key.slice(0, first));
    if (one) return one;
    const second = key.indexOf('/', first + 1);
    return (second > 0 && this.byPrefix.get(key.slice(0, second))) || this.storage;
  }
}
