/**
 * The watchers of one watch cache, indexed by the key each watches (one object, a namespace
 * prefix, or the whole resource), so a change is offered only to the watchers whose key covers
 * it (upstream cacher.go watchersBuffer / indexedWatchers). Progress (for bookmarks) reaches
 * the other watchers at most once a second.
 */
import type { CacheWatcher } from './cache-watcher.js';
import type { CacheEvent } from './watch-cache.js';

const PROGRESS_INTERVAL_MS = 1000;

export class WatcherSet {
  private readonly byKey = new Map<string, Set<CacheWatcher>>();
  private count = 0;
  private progressRevision = 0;
  private progressTimer: NodeJS.Timeout | undefined;
  private lastProgress = 0;

  /** Number of registered watchers. */
  get size(): number {
    return this.count;
  }

  add(watcher: CacheWatcher, key: string): void {
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    if (!set.has(watcher)) this.count++;
    set.add(watcher);
  }

  remove(watcher: CacheWatcher, key: string): void {
    const set = this.byKey.get(key);
    if (!set?.delete(watcher)) return;
    this.count--;
    if (set.size === 0) this.byKey.delete(key);
  }

  /** Offer a change to every watcher whose key covers `ev.key`; returns how many were offered it. */
  dispatch(ev: CacheEvent): number {
    let offered = 0;
    const key = ev.key;
    for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) offered += this.offer(key.slice(0, i + 1), ev);
    return offered + this.offer(key, ev);
  }

  /** The cache reached `revision`: tell every watcher (throttled; the last one always arrives). */
  progress(revision: number): void {
    this.progressRevision = revision;
    if (this.progressTimer) return;
    const wait = this.lastProgress + PROGRESS_INTERVAL_MS - Date.now();
    if (wait <= 0) return this.broadcast();
    this.progressTimer = setTimeout(() => this.broadcast(), wait);
    this.progressTimer.unref();
  }

  /** End every watch (the cache stops serving or is stopped), after `error` when given. */
  closeAll(error?: Error): void {
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    for (const set of this.byKey.values()) for (const w of set) w.close(error);
    this.byKey.clear();
    this.count = 0;
  }

  private offer(key: string, ev: CacheEvent): number {
    const set = this.byKey.get(key);
    if (!set) return 0;
    for (const w of set) w.offer(ev);
    return set.size;
  }

  private broadcast(): void {
    this.progressTimer = undefined;
    this.lastProgress = Date.now();
    for (const set of this.byKey.values()) for (const w of set) w.progress(this.progressRevision);
  }
}
