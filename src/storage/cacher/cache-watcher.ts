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
 *
 * The watcher is its own AsyncIterator (no generator): a consumer waiting in `next()` is
 * handed an offered event directly, so a delivery costs one promise, which matters when one
 * change reaches thousands of watchers.
 */
import type { ApiObject } from '../../api/object.js';
import type { WatchEvent, WatchIterator } from '../types.js';
import { watchEventOf, type CacheEvent } from './watch-cache.js';

/** What every watcher of one cache shares: its bounds, and whom it tells of its end. */
export interface WatcherPolicy {
  /** Live events the queue may hold; one more terminates the watcher. */
  readonly capacity: number;
  /** Live events the queue may hold for at most `graceMs`. */
  readonly softCapacity: number;
  readonly graceMs: number;
  /** Called once when a watcher is terminated for falling behind. */
  terminated?(watcher: CacheWatcher): void;
  /** Called once when a watcher will deliver nothing more (closed, terminated or returned). */
  closed?(watcher: CacheWatcher): void;
}

type Waiter = { resolve: (r: IteratorResult<WatchEvent>) => void; reject: (err: Error) => void };

const DONE: IteratorResult<WatchEvent> = { done: true, value: undefined };
const ALL = (): boolean => true;

export class CacheWatcher implements WatchIterator, AsyncIterable<WatchEvent> {
  /** Set once the watcher will deliver nothing more than what is queued. */
  closed = false;
  private queue: WatchEvent[] = [];
  private head = 0;
  private initial = 0;
  /** The cache revision every event up to which has been offered. */
  private observed: number;
  private waiter: Waiter | null = null;
  /** The consumer's push callback (see WatchIterator.whenReady); only set while nothing is queued. */
  private wake: (() => void) | null = null;
  private error: Error | undefined;
  /** When the queue last went over softCapacity (0: it is not over). */
  private behindSince = 0;
  /** Called once with the others the policy is told of (see onEnd). */
  private ended: (() => void) | undefined;

  /**
   * A watcher of `key` (the relative key of one object, or a prefix ending in '/') that
   * delivers the events after `fromRevision` that `matches`; `onProgress` is called once every
   * event up to a revision has been consumed (the point a bookmark may claim).
   */
  constructor(
    private readonly policy: WatcherPolicy,
    readonly key: string,
    fromRevision: number,
    private readonly matches: (obj: ApiObject) => boolean = ALL,
    private readonly onProgress?: (revision: number) => void,
  ) {
    this.observed = fromRevision;
  }

  /** Call `fn` once when the watcher ends (after the policy's `closed`). */
  onEnd(fn: () => void): void {
    this.ended = fn;
  }

  /** Queue events that precede the live ones and are exempt from the bound. */
  seed(events: readonly WatchEvent[], revision: number): void {
    for (const ev of events) this.queue.push(ev);
    this.initial += events.length;
    this.observed = Math.max(this.observed, revision);
  }

  /** The WatchEvent this watcher sees for a change (upstream's transitions), or null. */
  eventFor(ev: CacheEvent): WatchEvent | null {
    const cur = ev.object !== null && this.matches(ev.object);
    const old = ev.prev !== null && this.matches(ev.prev);
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
    if (this.waiter) {
      // The consumer is waiting, so nothing is queued: hand the event over.
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ done: false, value: out });
      return;
    }
    if (this.wake) {
      // The consumer reads pushed events: queue this one and call it now.
      this.queue.push(out);
      this.wakeUp();
      return;
    }
    const behind = this.queue.length - this.head - this.initial;
    if (behind >= this.policy.softCapacity) {
      const now = Date.now();
      if (!this.behindSince) this.behindSince = now;
      if (behind >= this.policy.capacity || now - this.behindSince > this.policy.graceMs) {
        this.terminate();
        return;
      }
    } else this.behindSince = 0;
    this.queue.push(out);
  }

  /** The cache advanced to `revision` without a change for this watcher. */
  progress(revision: number): void {
    if (this.closed) return;
    this.observed = Math.max(this.observed, revision);
    if (this.head === this.queue.length) this.onProgress?.(this.observed);
  }

  /**
   * End the stream after what is queued (the cache stops serving or the client left); with
   * `error`, the iteration then throws it (storage was lost: clients see why).
   */
  close(error?: Error): void {
    if (this.closed) return;
    this.error = error;
    this.closed = true;
    this.settle();
  }

  /** End the stream now, dropping what is queued: the consumer fell behind. */
  terminate(): void {
    if (this.closed) return;
    this.queue = [];
    this.head = 0;
    this.initial = 0;
    this.closed = true;
    this.policy.terminated?.(this);
    this.settle();
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    if (this.head < this.queue.length) return Promise.resolve({ done: false, value: this.take() });
    if (this.closed) {
      const error = this.error;
      this.error = undefined;
      return error ? Promise.reject(error) : Promise.resolve(DONE);
    }
    // Everything delivered so far has been consumed: a bookmark may claim the revision.
    this.onProgress?.(this.observed);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  whenReady(wake: () => void): boolean {
    if (this.head < this.queue.length || this.closed) return false;
    // Everything delivered so far has been consumed: a bookmark may claim the revision.
    this.onProgress?.(this.observed);
    this.wake = wake;
    return true;
  }

  /** The next queued event, if one is waiting. */
  poll(): WatchEvent | undefined {
    return this.head < this.queue.length ? this.take() : undefined;
  }

  /** The consumer stopped reading. */
  return(): Promise<IteratorResult<WatchEvent>> {
    this.queue = [];
    this.head = 0;
    this.close();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private take(): WatchEvent {
    const ev = this.queue[this.head++];
    if (this.initial > 0) this.initial--;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return ev;
  }

  /** The watcher closed: wake a waiting consumer (what is queued is still delivered) and tell the owner. */
  private settle(): void {
    this.wakeUp();
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) {
      const error = this.error;
      this.error = undefined;
      if (error) waiter.reject(error);
      else waiter.resolve(DONE);
    }
    this.policy.closed?.(this);
    const ended = this.ended;
    this.ended = undefined;
    ended?.();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
