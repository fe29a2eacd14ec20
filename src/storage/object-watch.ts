/**
 * Object-level watch over a key-value watch, as upstream's etcd3 watcher
 * (k8s.io/apiserver pkg/storage/etcd3/watcher.go): an optional initial sync of ADDED events
 * (at the latest revision, not older than the one asked for), optionally closed by a BOOKMARK
 * annotated `k8s.io/initial-events-end: "true"` (watch-list, KEP-3157), then live changes with
 * selector transitions:
 *   old matches & new matches -> MODIFIED; only new matches -> ADDED;
 *   only old matches -> DELETED (old content, the event's resourceVersion); neither -> nothing.
 */
import type { ApiObject } from '../api/object.js';
import { decodeObject, storageErrorOf } from './codec.js';
import type { KvEvent, KvStore } from './kv/types.js';
import { prefixEnd } from './kv/types.js';
import { waitForRevision } from './revision-wait.js';
import type { ObjectWatchOptions, WatchEvent, WatchEventType, WatchIterator } from './types.js';

/** The annotation of the BOOKMARK that ends a watch-list's initial events (upstream metav1.InitialEventsAnnotationKey). */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export type { ObjectWatchOptions, WatchEvent, WatchEventType, WatchIterator };

/**
 * Stream object events. The iterator throws StorageError ('Expired' when the start revision is
 * compacted, 'Unreachable' when storage is lost) and ends when `opts.signal` aborts or when
 * `return()` is called, at once even while a `next()` waits for a change.
 */
export function watchObjects(kv: KvStore, opts: ObjectWatchOptions): AsyncIterable<WatchEvent> {
  return { [Symbol.asyncIterator]: () => new StoppableWatch(kv, opts) };
}

/**
 * The generator of {@link objectEvents} behind an AbortController of its own: a generator's
 * `return()` waits for the pending `next()`, so `return()` aborts the storage watch first.
 */
class StoppableWatch implements WatchIterator {
  private readonly abort = new AbortController();
  private readonly events: AsyncGenerator<WatchEvent>;
  private readonly unlink: (() => void) | undefined;

  constructor(kv: KvStore, opts: ObjectWatchOptions) {
    const outer = opts.signal;
    if (outer?.aborted) this.abort.abort();
    else if (outer) this.unlink = onAbort(outer, () => this.abort.abort());
    this.events = objectEvents(kv, opts, this.abort.signal);
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    return this.unlink ? this.nextThenUnlink() : this.events.next();
  }

  return(): Promise<IteratorResult<WatchEvent>> {
    this.abort.abort();
    this.unlink?.();
    return this.events.return(undefined);
  }

  /** The next event, the caller's signal unlinked once the watch has ended. */
  private async nextThenUnlink(): Promise<IteratorResult<WatchEvent>> {
    try {
      const r = await this.events.next();
      if (r.done) this.unlink?.();
      return r;
    } catch (err) {
      this.unlink?.();
      throw err;
    }
  }
}

/**
 * Call `fn` once when `signal` aborts; returns what removes the listener, for a signal that
 * outlives the watch (a controller's is shared by every watch it opens).
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}

async function* objectEvents(kv: KvStore, opts: ObjectWatchOptions, signal: AbortSignal): AsyncGenerator<WatchEvent> {
  const matches = opts.predicate ?? (() => true);
  let from = opts.resourceVersion + 1;
  try {
    if (opts.sendInitialEvents ?? opts.resourceVersion === 0) {
      if (opts.resourceVersion > 0) await waitForRevision(kv, opts.resourceVersion, opts.fullKey);
      const res = await kv.range(
        opts.recursive ? { start: opts.fullKey, end: prefixEnd(opts.fullKey) } : { start: opts.fullKey },
      );
      for (const item of res.kvs) {
        const obj = decodeObject(item);
        if (matches(obj)) yield { type: 'ADDED', object: obj };
      }
      from = res.revision + 1;
      if (opts.initialEventsEndBookmark) {
        const metadata = {
          resourceVersion: String(res.revision),
          annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' },
        };
        yield { type: 'BOOKMARK', object: { metadata } };
      }
      opts.onProgress?.(res.revision);
    } else if (opts.resourceVersion === 0) {
      from = (await kv.currentRevision()) + 1;
    }
    if (signal.aborted) return;
    const stream = kv.watch({ prefix: opts.fullKey, exact: !opts.recursive, fromRevision: from, signal });
    for await (const response of stream) {
      for (const ev of response.events) {
        const out = transform(ev, matches);
        if (out) yield out;
      }
      opts.onProgress?.(response.revision);
    }
  } catch (err) {
    if (signal.aborted) return;
    throw storageErrorOf(err, opts.fullKey);
  }
}

function transform(ev: KvEvent, matches: (obj: ApiObject) => boolean): WatchEvent | null {
  const rev = ev.kv.modRevision;
  const prev = ev.prevKv ? decodeObject(ev.prevKv, rev) : null;
  if (ev.type === 'delete') {
    return prev && matches(prev) ? { type: 'DELETED', object: prev } : null;
  }
  const cur = decodeObject(ev.kv);
  const curMatch = matches(cur);
  const prevMatch = prev ? matches(prev) : false;
  if (curMatch && prevMatch) return { type: 'MODIFIED', object: cur, prevObject: prev! };
  if (curMatch) return { type: 'ADDED', object: cur };
  if (prevMatch && prev) return { type: 'DELETED', object: prev };
  return null;
}
