/**
 * Object-level watch over a key-value watch, as upstream's etcd3 watcher
 * (k8s.io/apiserver pkg/storage/etcd3/watcher.go): an initial sync of ADDED events when started
 * without a resourceVersion, then live changes with selector transitions:
 *   old matches & new matches -> MODIFIED; only new matches -> ADDED;
 *   only old matches -> DELETED (old content, the event's resourceVersion); neither -> nothing.
 */
import type { ApiObject } from '../api/object.js';
import { decodeObject, storageErrorOf } from './codec.js';
import type { KvEvent, KvStore } from './kv/types.js';
import { prefixEnd } from './kv/types.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One object-level watch event. `object.metadata.resourceVersion` is the event's revision. */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: ApiObject;
}

export interface ObjectWatchOptions {
  /** Full etcd key of the object, or of the prefix when `recursive`. */
  readonly fullKey: string;
  readonly recursive: boolean;
  /** Start revision: 0 = sync current state as ADDED first, N = only changes after N. */
  readonly resourceVersion: number;
  readonly predicate?: (obj: ApiObject) => boolean;
  readonly signal: AbortSignal;
  /**
   * Called once every event up to `revision` has been yielded (and so consumed): the point a
   * bookmark may claim.
   */
  readonly onProgress?: (revision: number) => void;
}

/**
 * Stream object events. The iterator throws StorageError ('Expired' when the start revision is
 * compacted, 'Unreachable' when storage is lost) and returns when `signal` aborts.
 */
export async function* watchObjects(kv: KvStore, opts: ObjectWatchOptions): AsyncGenerator<WatchEvent> {
  const matches = opts.predicate ?? (() => true);
  let from = opts.resourceVersion + 1;
  try {
    if (opts.resourceVersion === 0) {
      const res = await kv.range(
        opts.recursive ? { start: opts.fullKey, end: prefixEnd(opts.fullKey) } : { start: opts.fullKey },
      );
      for (const item of res.kvs) {
        const obj = decodeObject(item);
        if (matches(obj)) yield { type: 'ADDED', object: obj };
      }
      from = res.revision + 1;
      opts.onProgress?.(res.revision);
    }
    if (opts.signal.aborted) return;
    const stream = kv.watch({ prefix: opts.fullKey, exact: !opts.recursive, fromRevision: from, signal: opts.signal });
    for await (const response of stream) {
      for (const ev of response.events) {
        const out = transform(ev, matches);
        if (out) yield out;
      }
      opts.onProgress?.(response.revision);
    }
  } catch (err) {
    if (opts.signal.aborted) return;
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
  if (curMatch && prevMatch) return { type: 'MODIFIED', object: cur };
  if (curMatch) return { type: 'ADDED', object: cur };
  if (prevMatch && prev) return { type: 'DELETED', object: prev };
  return null;
}
