/**
 * The watch cache of one resource, in front of its object storage (upstream k8s.io/apiserver
 * pkg/storage/cacher/cacher.go). Writes go to storage (an update starts from the cached object,
 * as upstream's cachedExistingObject, and reads storage only when that proves stale); the cache
 * learns of them from its one watch (see reflector.ts). Served from memory once the cache is ready:
 *  - watches: initial events from the state, buffered events after a resourceVersion (410
 *    Expired when it is older than the buffer), then live events, each encoded once however
 *    many watchers receive it (the events are shared objects);
 *  - gets and lists with resourceVersion "0" (any) or N (not older than N: waits up to 3 s for
 *    the cache to reach it, then 504), and lists without resourceVersion after confirming
 *    freshness (freshness.ts), falling back to storage when that fails;
 *  - a limit is honoured with a continue token at the list's revision (later pages are read
 *    from storage at that revision).
 * Read from storage, as upstream decides: gets without resourceVersion, continued lists,
 * Exact lists, paged lists without resourceVersion, and everything while the cache is not ready.
 */
import type { ApiObject } from '../../api/object.js';
import { encodeContinue } from '../continue-token.js';
import type { KvStore } from '../kv/types.js';
import { parseResourceVersion } from '../object-store.js';
import { StorageError } from '../storage-error.js';
import { storageErrorOf } from '../codec.js';
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
import { CacheWatcher, type WatcherPolicy } from './cache-watcher.js';
import { readConsistent, type KeyRange } from './freshness.js';
import { prefixEnd } from '../kv/types.js';
import { CacheNotReady, WatchCache, type CacheEvent, type Indexers } from './watch-cache.js';
import { Reflector } from './reflector.js';
import type { CacherObserver } from './observer.js';
import { WatcherSet } from './watcher-set.js';
import { watchFromCache, type CacheWatchSource } from './cache-watch.js';

export interface CacherOptions {
  /** Relative key prefix of the resource, ending in '/' (`pods/`). */
  readonly prefix: string;
  /** Resource name for metrics (`pods`, `securitycontextconstraints.security.ck.io`). */
  readonly resource: string;
  readonly indexers?: Indexers;
  /** Live events a watcher may fall behind by before it is terminated (default 10,000). */
  readonly watcherCapacity?: number;
  /** Live events a watcher may stay behind by for at most `watcherGraceMs` (defaults 1,000 and 5 s). */
  readonly watcherSoftCapacity?: number;
  readonly watcherGraceMs?: number;
  readonly observer?: CacherObserver;
  /** Buffer bounds (tests). */
  readonly lowerCapacity?: number;
  readonly freshMs?: number;
}

export class Cacher implements ObjectStorage, CacheWatchSource {
  readonly cache: WatchCache;
  readonly watchers = new WatcherSet();
  ready = false;
  /** Full key prefix of the resource (`/registry/pods/`). */
  readonly fullPrefix: string;
  private readonly reflector: Reflector;
  /** The bounds every watcher of this cache shares, and how it leaves the watcher set. */
  private readonly policy: WatcherPolicy;

  constructor(
    private readonly storage: ObjectStorage,
    readonly opts: CacherOptions,
  ) {
    this.cache = new WatchCache({ indexers: opts.indexers, lowerCapacity: opts.lowerCapacity, freshMs: opts.freshMs });
    this.fullPrefix = storage.fullKey(opts.prefix);
    const observer = opts.observer;
    const watchers = this.watchers;
    this.policy = {
      capacity: opts.watcherCapacity ?? 10_000,
      softCapacity: opts.watcherSoftCapacity ?? 1000,
      graceMs: opts.watcherGraceMs ?? 5000,
      terminated: () => observer?.watcherTerminated(opts.resource),
      closed: (w) => watchers.remove(w, w.key),
    };
    this.reflector = new Reflector({
      kv: storage.kv,
      fullPrefix: this.fullPrefix,
      rootLength: this.fullPrefix.length - opts.prefix.length,
      cache: this.cache,
      onEvent: (ev: CacheEvent) => {
        observer?.eventReceived(opts.resource, this.cache);
        const offered = this.watchers.dispatch(ev);
        if (offered) observer?.eventsDispatched(opts.resource, offered);
      },
      onProgress: (revision) => {
        observer?.resourceVersion(opts.resource, revision);
        this.watchers.progress(revision);
      },
      onReady: () => {
        this.ready = true;
        observer?.initialized(opts.resource, this.cache);
      },
      onLost: (err) => {
        this.ready = false;
        this.cache.invalidate();
        // Storage lost: watchers end with the error (503/504 for clients), as without a cache.
        // A compacted watch only relists: watchers end cleanly and watch again.
        const cause = storageErrorOf(err, opts.prefix);
        this.watchers.closeAll(cause.code === 'Expired' ? undefined : cause);
      },
    });
  }

  get kv(): KvStore {
    return this.storage.kv;
  }

  start(): void {
    this.reflector.start();
  }

  async stop(): Promise<void> {
    await this.reflector.stop();
    this.ready = false;
    this.cache.invalidate();
    this.watchers.closeAll();
  }

  fullKey(key: string): string {
    return this.storage.fullKey(key);
  }

  create(key: string, obj: ApiObject, opts?: CreateOptions): Promise<ApiObject> {
    return this.storage.create(key, obj, opts);
  }

  /**
   * Storage's guaranteed update, started from the cached object when there is one (upstream
   * Cacher.GuaranteedUpdate passes it as cachedExistingObject): a current cache spares the read.
   */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<ApiObject> {
    const cached = this.ready && !opts.dryRun ? this.cache.updateBase(key) : undefined;
    return this.storage.guaranteedUpdate(key, tryUpdate, cached ? { ...opts, cached } : opts);
  }

  delete(key: string, opts?: DeleteOptions): Promise<ApiObject> {
    return this.storage.delete(key, opts);
  }

  /** Ask storage for a progress notification on the cache's watch (see Reflector.requestProgress). */
  requestProgress(): void {
    this.reflector.requestProgress();
  }

  /** The storage range of the keys under `keyPrefix` (relative), with the cache's count of them. */
  rangeOf(keyPrefix: string): KeyRange {
    const start = this.storage.fullKey(keyPrefix);
    return {
      start,
      end: prefixEnd(start),
      whole: keyPrefix === this.opts.prefix,
      cachedCount: () => {
        let n = 0;
        this.cache.scan(keyPrefix, undefined, () => void n++);
        return n;
      },
    };
  }

  /** True when `key` (relative) belongs to this resource. */
  owns(key: string): boolean {
    return key.startsWith(this.opts.prefix);
  }

  async get(key: string, opts: GetOptions = {}): Promise<ApiObject> {
    const rv = opts.resourceVersion ?? '';
    if (rv === '' || !this.ready) return this.storage.get(key, opts);
    const min = rv === '0' ? 0 : parseResourceVersion(rv, key);
    try {
      await this.cache.waitFor(min);
    } catch (err) {
      if (err instanceof CacheNotReady) return this.storage.get(key, opts);
      throw err;
    }
    const obj = this.cache.get(key);
    if (!obj) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
    return obj;
  }

  async list(keyPrefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const rv = opts.resourceVersion ?? '';
    const limited = Boolean(opts.limit && opts.limit > 0);
    const exact =
      opts.resourceVersionMatch === 'Exact' ||
      (limited && rv !== '' && rv !== '0' && opts.resourceVersionMatch !== 'NotOlderThan');
    if (!this.ready || opts.continueToken || exact || (rv === '' && limited)) return this.storage.list(keyPrefix, opts);
    try {
      if (rv === '') {
        const fresh = await readConsistent(
          {
            kv: this.kv,
            cache: this.cache,
            requestProgress: () => this.requestProgress(),
            range: this.rangeOf(keyPrefix),
          },
          (revision) => this.snapshot(keyPrefix, revision, opts),
        );
        this.opts.observer?.consistentRead(this.opts.resource, fresh !== null);
        return fresh ? fresh.value : await this.storage.list(keyPrefix, opts);
      }
      await this.cache.waitFor(rv === '0' ? 0 : parseResourceVersion(rv, keyPrefix));
      return this.snapshot(keyPrefix, this.cache.revision, opts);
    } catch (err) {
      if (err instanceof CacheNotReady) return this.storage.list(keyPrefix, opts);
      throw storageErrorOf(err, keyPrefix);
    }
  }

  watch(key: string, opts: Omit<ObjectWatchOptions, 'fullKey'>): AsyncIterable<WatchEvent> {
    if (!this.ready) return this.storage.watch(key, opts);
    return watchFromCache(this, key, opts, () => this.storage.watch(key, opts));
  }

  /** A new watcher for the fan-out (see cache-watch.ts); it leaves the fan-out when it closes. */
  newWatcher(key: string, opts: Omit<ObjectWatchOptions, 'fullKey'>, fromRevision: number): CacheWatcher {
    return new CacheWatcher(this.policy, key, fromRevision, opts.predicate, opts.onProgress);
  }

  /** The list of `keyPrefix` from the cache's state, answered at `revision`. */
  private snapshot(keyPrefix: string, revision: number, opts: ListOptions): ListResult {
    if (!this.ready) throw new CacheNotReady();
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const items: ApiObject[] = [];
    let lastKey = '';
    let matched = 0;
    const predicate = opts.predicate;
    this.cache.scan(keyPrefix, opts.indexValues, (key, obj) => {
      if (predicate && !predicate(obj)) return;
      matched++;
      if (limit && items.length >= limit) return;
      items.push(obj);
      lastKey = key;
    });
    if (!limit || matched <= limit) return { items, resourceVersion: String(revision) };
    const result: { -readonly [K in keyof ListResult]: ListResult[K] } = {
      items,
      resourceVersion: String(revision),
      continue: encodeContinue(revision, lastKey.slice(keyPrefix.length) + '\0'),
    };
    if (!opts.hasSelector) result.remainingItemCount = matched - limit;
    return result;
  }
}
