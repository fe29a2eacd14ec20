/**
 * A watch served by a watch cache (upstream k8s.io/apiserver pkg/storage/cacher Cacher.Watch):
 *  - with initial events (watch-list, or resourceVersion 0/unset): the state under the key as
 *    ADDED at the cache's revision (for an unset resourceVersion, once the cache is confirmed
 *    current, see freshness.ts; for N, once it reached N), then the initial-events-end BOOKMARK
 *    when asked, then live events;
 *  - from resourceVersion N: the buffered events after N (410 Expired, "too old resource
 *    version", when N is older than the buffer), then live events;
 *  - from 0 without initial events: live events only.
 * The snapshot and the registration happen in one synchronous step, so no event falls between
 * them. The watch ends when the signal aborts, when the cache stops serving, or when the
 * watcher falls behind (see cache-watcher.ts). If the cache stops serving before the watch
 * starts, storage serves it.
 */
import type { ObjectWatchOptions, WatchEvent, WatchIterator } from '../types.js';
import { INITIAL_EVENTS_END_ANNOTATION, onAbort } from '../object-watch.js';
import type { CacheWatcher } from './cache-watcher.js';
import { readConsistent, type KeyRange } from './freshness.js';
import { CacheNotReady } from './watch-cache.js';
import { storageErrorOf } from '../codec.js';
import type { KvStore } from '../kv/types.js';
import type { WatchCache } from './watch-cache.js';
import type { WatcherSet } from './watcher-set.js';

type Options = Omit<ObjectWatchOptions, 'fullKey'>;

/** What a cache watch reads of its cacher (the Cacher in cacher.ts). */
export interface CacheWatchSource {
  readonly cache: WatchCache;
  readonly watchers: WatcherSet;
  /** Whether the cache is serving (its first list is loaded and its watch is open). */
  readonly ready: boolean;
  /** The key-value store under the cache, for consistent reads. */
  readonly kv: KvStore;
  /** Ask storage for a progress notification on the cache's watch (see Reflector.requestProgress). */
  requestProgress(): void;
  /** The storage range of the keys under a relative prefix, with the cache's count of them. */
  rangeOf(keyPrefix: string): KeyRange;
  newWatcher(key: string, opts: Options, fromRevision: number): CacheWatcher;
}

/** Serve a watch of `key` from `cacher`; `fallback` opens it on storage instead. */
export function watchFromCache(
  cacher: CacheWatchSource,
  key: string,
  opts: Options,
  fallback: () => AsyncIterable<WatchEvent>,
): AsyncIterable<WatchEvent> {
  return { [Symbol.asyncIterator]: () => new CacheWatchIterator(cacher, key, opts, fallback) };
}

/**
 * The iterator of one cache watch: the first `next()` (or `whenReady`) registers the watcher
 * (or opens the fallback), later calls go straight to it, so a delivered event passes no
 * generator. Once open it keeps only the inner iterator: an open watch may last an hour and
 * thousands may be open.
 */
class CacheWatchIterator implements WatchIterator {
  private inner: WatchIterator | undefined;
  private opening: Promise<WatchIterator> | undefined;
  /** Set once `return()` was called: the watch must not start (or must end once it has). */
  private stopped = false;
  /** Set when opening failed: `next()` throws why. */
  private failed = false;
  private start: (() => Promise<WatchIterator>) | undefined;

  constructor(cacher: CacheWatchSource, key: string, opts: Options, fallback: () => AsyncIterable<WatchEvent>) {
    this.start = () => this.open(cacher, key, opts, fallback);
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    if (this.inner) return this.inner.next();
    return this.opened().then((it) => it.next());
  }

  poll(): WatchEvent | undefined {
    return this.inner?.poll?.();
  }

  /**
   * Before the watch is open: start opening it and wake the consumer once it is (an idle watch
   * then waits in the watcher's push hook, with no promise pending); false once opening failed,
   * so that `next()` reports why.
   */
  whenReady(wake: () => void): boolean {
    if (this.inner) return this.inner.whenReady?.(wake) ?? false;
    if (this.failed) return false;
    this.opened().then(wake, wake);
    return true;
  }

  /** The consumer stopped: end the watcher (or the fallback), opened or not. */
  async return(): Promise<IteratorResult<WatchEvent>> {
    this.stopped = true;
    if (!this.inner && this.opening) await this.opening.catch(() => undefined);
    const inner = this.inner;
    this.inner = EMPTY;
    await inner?.return?.();
    return DONE;
  }

  private opened(): Promise<WatchIterator> {
    if (!this.opening) {
      const start = this.start!;
      this.start = undefined;
      this.opening = start().then(
        (it) => {
          // Open: `inner` serves from now on; the settled promise need not be kept.
          this.opening = undefined;
          return it;
        },
        (err: unknown) => {
          this.failed = true;
          throw err;
        },
      );
    }
    return this.opening;
  }

  private async open(
    cacher: CacheWatchSource,
    key: string,
    opts: Options,
    fallback: () => AsyncIterable<WatchEvent>,
  ): Promise<WatchIterator> {
    const signal = opts.signal;
    const ended = () => this.stopped || Boolean(signal?.aborted);
    let watcher: CacheWatcher | null;
    try {
      watcher = ended() ? null : await start(cacher, key, opts);
    } catch (err) {
      if (!(err instanceof CacheNotReady)) throw storageErrorOf(err, key);
      watcher = null;
    }
    if (!watcher) {
      this.inner = ended() ? EMPTY : fallback()[Symbol.asyncIterator]();
      return this.inner;
    }
    const w = watcher;
    if (ended()) w.close();
    else if (signal) w.onEnd(onAbort(signal, () => w.close()));
    this.inner = w;
    return w;
  }
}

const DONE: IteratorResult<WatchEvent> = { done: true, value: undefined };
const EMPTY: WatchIterator = { next: () => Promise.resolve(DONE) };

/** Register a watcher with its initial events; null when the cache cannot serve it. */
async function start(cacher: CacheWatchSource, key: string, opts: Options): Promise<CacheWatcher | null> {
  const cache = cacher.cache;
  const initial = opts.sendInitialEvents ?? opts.resourceVersion === 0;
  if (!initial) {
    if (opts.resourceVersion === 0) return register(cacher, key, opts, cache.revision, [], cache.revision);
    // Throws Expired for a revision older than the buffer.
    const backlog = cache.eventsSince(opts.resourceVersion);
    const w = register(cacher, key, opts, opts.resourceVersion, [], opts.resourceVersion);
    const events = backlog.map((ev) => w.eventFor(ev)).filter((ev): ev is WatchEvent => ev !== null);
    w.seed(events, cache.revision);
    return w;
  }
  const take = (revision: number): CacheWatcher => {
    if (!cacher.ready) throw new CacheNotReady();
    const events: WatchEvent[] = [];
    const predicate = opts.predicate;
    cache.scan(key, opts.indexValues, (_key, object) => {
      if (!predicate || predicate(object)) events.push({ type: 'ADDED', object });
    });
    if (opts.initialEventsEndBookmark) {
      const metadata = { resourceVersion: String(revision), annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } };
      events.push({ type: 'BOOKMARK', object: { metadata } });
    }
    return register(cacher, key, opts, revision, events, revision);
  };
  if (opts.consistent) {
    const fresh = await readConsistent(
      { kv: cacher.kv, cache, requestProgress: () => cacher.requestProgress(), range: cacher.rangeOf(key) },
      take,
    );
    return fresh ? fresh.value : null;
  }
  if (opts.resourceVersion > 0) await cache.waitFor(opts.resourceVersion);
  return take(cache.revision);
}

function register(
  cacher: CacheWatchSource,
  key: string,
  opts: Options,
  fromRevision: number,
  seed: WatchEvent[],
  revision: number,
): CacheWatcher {
  const w = cacher.newWatcher(key, opts, fromRevision);
  if (seed.length || revision > fromRevision) w.seed(seed, revision);
  cacher.watchers.add(w, key);
  return w;
}
