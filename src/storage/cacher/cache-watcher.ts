/**
 * One watch served from a watch cache (upstream k8s.io/apiserver pkg/storage/cacher
 * cache_watcher.go): the events the cache offers pass the watcher's key and selector with
 * upstream's transitions, and wait in a bounded queue for the consumer. A consumer that falls
 * `capacity` events behind is terminated (its stream ends; clients re-watch) instead of holding
 * memory or slowing the cache and other watchers: at once past `capacity`, or when it stayed
 * more than `softCapacity` behind for `graceMs` (bursts that a healthy consumer drains are
 * allowed, as upstream's dispatch waits a budget before closing a watcher). Queued events are
 * shared with every other watcher, so a queue costs a reference per event. Initial events (the
 * state, or buffered events after the watch's resourceVersion) do not count against the bounds.
 */
import type { ApiObject } from '../../api/object.js';
import type { WatchEvent } from '../object-watch.js';
import { watchEventOf, type CacheEvent } from './watch-cache.js';

export interface CacheWatcherOptions {
  /** The relative key watched: one object, or a prefix ending in '/'. */
  readonly key: string;
  readonly predicate?: (obj: ApiObject) => boolean;
  /** Live events the queue may hold; one more terminates the watcher. */
  readonly capacity: number;
  /** Live events the queue may hold for at most `graceMs`. */
  readonly softCapacity: number;
  readonly graceMs: number;
  /** Events at or below this revision are not delivered (already covered by the initial events). */
  readonly fromRevision: number;
  readonly onProgress?: (revision: number) => void;
  /** Called once when the watcher is terminated for falling behind. */
  readonly onTerminate?: () => void;
}

export class CacheWatcher implements AsyncIterable<WatchEvent> {
  /** Set once the watcher will deliver nothing more. */
  closed = false;
  private queue: WatchEvent[] = [];
  private head = 0;
  private initial = 0;
  /** The cache revision every event up to which has been offered. */
  private observed: number;
  private wake: (() => void) | null = null;
  private error: Error | undefined;
  /** When the queue last went over softCapacity (0: it is not over). */
  private behindSince = 0;

  constructor(private readonly opts: CacheWatcherOptions) {
    this.observed = opts.fromRevision;
  }

  /** Queue events that precede the live ones and are exempt from the bound. */
  seed(events: readonly WatchEvent[], revision: number): void {
    for (const ev of events) this.queue.push(ev);
    this.initial += events.length;
    this.observed = Math.max(this.observed, revision);
  }

  /** The WatchEvent this watcher sees for a change (upstream's transitions), or null. */
  eventFor(ev: CacheEvent): WatchEvent | null {
    const matches = this.opts.predicate ?? (() => true);
    const cur = ev.object !== null && matches(ev.object);
    const old = ev.prev !== null && matches(ev.prev);
    if (cur && old) return watchEventOf(ev, 'MODIFIED');
    if (cur) return watchEventOf(ev, 'ADDED');
    if (old) return watchEventOf(ev, 'DELETED');
    return null;
  }

  /** Offer a change the cache applied (already known to be under this watcher's key). */
  offer(ev: CacheEvent): void {
    if (this.closed || ev.revision <= this.observed) return;
    this.observed = ev.revision;
    const out = this.eventFor(ev);
    if (!out) {
      this.progress(ev.revision);
      return;
    }
    const behind = this.queue.length - this.head - this.initial;
    if (behind >= this.opts.softCapacity) {
      const now = Date.now();
      if (!this.behindSince) this.behindSince = now;
      if (behind >= this.opts.capacity || now - this.behindSince > this.opts.graceMs) {
        this.terminate();
        return;
      }
    } else this.behindSince = 0;
    this.queue.push(out);
    this.notify();
  }

  /** The cache advanced to `revision` without a change for this watcher. */
  progress(revision: number): void {
    if (this.closed) return;
    this.observed = Math.max(this.observed, revision);
    if (this.head === this.queue.length) this.opts.onProgress?.(this.observed);
  }

  /**
   * End the stream after what is queued (the cache stops serving or the client left); with
   * `error`, the iteration then throws it (storage was lost: clients see why).
   */
  close(error?: Error): void {
    if (!this.closed) this.error = error;
    this.closed = true;
    this.notify();
  }

  /** End the stream now, dropping what is queued: the consumer fell behind. */
  terminate(): void {
    if (this.closed) return;
    this.queue = [];
    this.head = 0;
    this.closed = true;
    this.opts.onTerminate?.();
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent> {
    for (;;) {
      if (this.head < this.queue.length) {
        const ev = this.queue[this.head++];
        if (this.initial > 0) this.initial--;
        if (this.head > 1024 && this.head * 2 > this.queue.length) {
          this.queue = this.queue.slice(this.head);
          this.head = 0;
        }
        yield ev;
        if (this.head === this.queue.length && !this.closed) this.opts.onProgress?.(this.observed);
        continue;
      }
      if (this.closed) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
