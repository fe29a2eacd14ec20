/**
 * The state of one resource as its watch cache keeps it (upstream k8s.io/apiserver
 * pkg/storage/cacher/watch_cache.go): every object by key in key order (a namespace is a key
 * range), optional indexes by field value (pods by `spec.nodeName`), a buffer of recent events
 * bounded by count and age, and the revision the cache has seen everything up to.
 *
 * The buffer keeps at least `freshMs` (upstream eventFreshDuration, 75 s) of events unless it
 * holds `upperCapacity` of them (upstream defaultUpperBoundCapacity, 100 * 1024); older events
 * beyond `lowerCapacity` (upstream defaultLowerBoundCapacity, 100) are dropped.
 */
import { withOwn, type ApiObject } from '../../api/object.js';
import type { WatchEvent } from '../types.js';
import { SortedMap } from '../sorted-map.js';
import { StorageError } from '../storage-error.js';

/** One change of the resource, as the cache applied it. Keys are relative (`pods/ns/name`). */
export interface CacheEvent {
  readonly key: string;
  readonly revision: number;
  /** The object after the change; null for a delete. */
  readonly object: ApiObject | null;
  /** The object before the change as the cache held it; null when the key was new. */
  readonly prev: ApiObject | null;
  /** When the cache applied it (Date.now() milliseconds), for the age bound. */
  readonly receivedAt: number;
  /** The WatchEvents built from this change, shared by every watcher (see {@link watchEventOf}). */
  shared?: Partial<Record<'ADDED' | 'MODIFIED' | 'DELETED', WatchEvent>>;
}

/** Field indexes: field name -> the object's value of it. */
export type Indexers = Readonly<Record<string, (obj: ApiObject) => string>>;

export interface WatchCacheOptions {
  readonly indexers?: Indexers;
  readonly lowerCapacity?: number;
  readonly upperCapacity?: number;
  /** Milliseconds of events always kept (below upperCapacity). */
  readonly freshMs?: number;
  readonly now?: () => number;
}

/** Raised to readers waiting on a cache that stopped serving (its watch failed): read storage instead. */
export class CacheNotReady extends Error {
  constructor() {
    super('watch cache is not ready');
  }
}

/**
 * The WatchEvent of `type` for a change: ADDED/MODIFIED carry the new object, DELETED the
 * previous one at the change's revision (upstream: a delete's object, or an object that no
 * longer matches a watcher's selector). Built once and shared, so encoders can cache on it.
 */
export function watchEventOf(ev: CacheEvent, type: 'ADDED' | 'MODIFIED' | 'DELETED'): WatchEvent {
  ev.shared ??= {};
  let out = ev.shared[type];
  if (!out) {
    const object = type === 'DELETED' ? withRevision(ev.prev!, ev.revision) : ev.object!;
    out = type === 'MODIFIED' && ev.prev ? { type, object, prevObject: ev.prev } : { type, object };
    ev.shared[type] = out;
  }
  return out;
}

function withRevision(obj: ApiObject, revision: number): ApiObject {
  return withOwn(obj, 'metadata', withOwn(obj.metadata, 'resourceVersion', String(revision)));
}

export class WatchCache {
  /** Every event with a revision above this is in the buffer. */
  bufferStart = 0;
  /** The cache has applied every change up to this revision. */
  revision = 0;
  /** Every object by key, for point reads. */
  private readonly objects = new Map<string, ApiObject>();
  /** Keys whose stored value is attached to a lease (rare: none of the served kinds writes one). */
  private readonly leased = new Set<string>();
  /** The same objects in key order, for range reads. */
  private readonly sorted = new SortedMap<ApiObject>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private events: CacheEvent[] = [];
  private head = 0;
  private waiters: { revision: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  private readonly lower: number;
  private readonly upper: number;
  private readonly freshMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: WatchCacheOptions = {}) {
    this.lower = opts.lowerCapacity ?? 100;
    this.upper = opts.upperCapacity ?? 100 * 1024;
    this.freshMs = opts.freshMs ?? 75_000;
    this.now = opts.now ?? Date.now;
  }

  /** Number of objects held. */
  get size(): number {
    return this.objects.size;
  }

  /** Number of events buffered. */
  get buffered(): number {
    return this.events.length - this.head;
  }

  /**
   * Replace the whole state with a list read at `revision` (the buffer restarts there); `lease`
   * is the lease an item's key is attached to (0 or absent: none).
   */
  replace(items: readonly { key: string; object: ApiObject; lease?: number }[], revision: number): void {
    this.objects.clear();
    this.indexes.clear();
    this.sorted.clear();
    this.leased.clear();
    for (const { key, object, lease } of items) {
      this.put(key, object);
      if (lease) this.leased.add(key);
    }
    this.events = [];
    this.head = 0;
    this.bufferStart = revision;
    this.advance(revision);
  }

  /**
   * Apply one change: `object` null deletes `key`; `lease` is the lease the key is now attached
   * to (0: none). Returns the event, or null for a delete of an unknown key.
   */
  apply(key: string, revision: number, object: ApiObject | null, lease = 0): CacheEvent | null {
    if (object && lease) this.leased.add(key);
    else if (this.leased.size) this.leased.delete(key);
    const prev = this.objects.get(key) ?? null;
    if (!object && !prev) {
      this.advance(revision);
      return null;
    }
    if (prev) this.unindex(key, prev);
    if (object) this.put(key, object);
    else {
      this.objects.delete(key);
      this.sorted.delete(key);
    }
    const ev: CacheEvent = { key, revision, object, prev, receivedAt: this.now() };
    this.events.push(ev);
    this.evict();
    this.advance(revision);
    return ev;
  }

  /** The store has seen everything up to `revision` (a progress notification). */
  advance(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    if (!this.waiters.length) return;
    const still = [];
    for (const w of this.waiters) {
      if (w.revision <= revision) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  get(key: string): ApiObject | undefined {
    return this.objects.get(key);
  }

  /**
   * The object at `key` to start an update from (UpdateOptions.cached): undefined when absent or
   * when its key is attached to a lease (a write from it would not carry the lease over).
   */
  updateBase(key: string): ApiObject | undefined {
    return this.leased.has(key) ? undefined : this.objects.get(key);
  }

  /**
   * Call `visit` with each object at `key` (exact) or under it (a prefix ending in '/'), in key
   * order. With `indexValues` naming an indexed field, only the objects holding that value.
   * `visit` must not change the cache.
   */
  scan(
    key: string,
    indexValues: Readonly<Record<string, string>> | undefined,
    visit: (key: string, object: ApiObject) => void,
  ): void {
    if (!key.endsWith('/')) {
      const object = this.objects.get(key);
      if (object) visit(key, object);
      return;
    }
    for (const [field, value] of Object.entries(indexValues ?? {})) {
      const index = this.indexes.get(field);
      if (!index) continue;
      for (const k of [...(index.get(value) ?? [])].filter((k) => k.startsWith(key)).sort())
        visit(k, this.objects.get(k)!);
      return;
    }
    this.sorted.scan(key, prefixEndOf(key), visit);
  }

  /**
   * Buffered events after `revision`, oldest first. Throws StorageError 'Expired' ("too old
   * resource version: N (M)", as upstream) when events after it are no longer buffered.
   */
  eventsSince(revision: number): CacheEvent[] {
    if (revision < this.bufferStart) {
      throw new StorageError('Expired', '', `too old resource version: ${revision} (${this.bufferStart})`);
    }
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }

  /**
   * Resolve once the cache has reached `revision`; throws StorageError
   * 'TooLargeResourceVersion' ("N, current: M") after `timeoutMs` (upstream blockTimeout 3 s),
   * or CacheNotReady when the cache stops serving meanwhile.
   */
  async waitFor(revision: number, timeoutMs = 3000): Promise<void> {
    if (this.revision >= revision) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const waiter = { revision, resolve, reject };
        this.waiters.push(waiter);
        timer = setTimeout(() => {
          // A reader that gave up leaves the queue (readers that recheck would pile up in it).
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new StorageError('TooLargeResourceVersion', '', `${revision}, current: ${this.revision}`));
        }, timeoutMs);
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Fail every waiting reader with CacheNotReady (the cache stopped serving). */
  invalidate(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(new CacheNotReady());
  }

  private put(key: string, object: ApiObject): void {
    this.objects.set(key, object);
    this.sorted.set(key, object);
    for (const [field, valueOf] of Object.entries(this.opts.indexers ?? {})) {
      let index = this.indexes.get(field);
      if (!index) this.indexes.set(field, (index = new Map()));
      const value = valueOf(object);
      let set = index.get(value);
      if (!set) index.set(value, (set = new Set()));
      set.add(key);
    }
  }

  private unindex(key: string, object: ApiObject): void {
    for (const [field, valueOf] of Object.entries(this.opts.indexers ?? {})) {
      const set = this.indexes.get(field)?.get(valueOf(object));
      set?.delete(key);
      if (set && set.size === 0) this.indexes.get(field)!.delete(valueOf(object));
    }
  }

  private evict(): void {
    const now = this.now();
    while (
      this.buffered > this.upper ||
      (this.buffered > this.lower && now - this.events[this.head].receivedAt > this.freshMs)
    ) {
      this.bufferStart = this.events[this.head].revision;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}

/** The end of the key range of a prefix (keys are ASCII). */
function prefixEndOf(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
