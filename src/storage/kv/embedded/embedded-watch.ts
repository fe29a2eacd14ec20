/**
 * Watches of the embedded store: a watcher keeps a cursor into the persisted write log and reads
 * it in pages; once it has read everything it waits for the store's next write. Replay from an
 * old revision and live events come from the same log, so there is no gap and no duplicate
 * between them. A cursor at or below the compacted revision fails with 'Compacted'.
 */
import { KvError, type KvEvent, type KvWatch, type KvWatchResponse, type WatchOptions } from '../types.js';
import { errorMessage } from '../../../api/error-message.js';

/** One write as the log keeps it: its revision and the event watchers see. */
export interface LogEntry extends KvEvent {
  readonly revision: number;
}

/** What a watch needs of the store. */
export interface WatchSource {
  /** Up to `limit` log entries from revision `from` on, in revision order. */
  read(from: number, limit: number): LogEntry[];
  /** The compacted revision (0 when never compacted). */
  compacted(): number;
  closed(): boolean;
  /** Dispatches a 'write' event after each committed write (and at close). */
  wake(): EventTarget;
}

const PAGE = 1000;

/** A watch from `opts.fromRevision` over `opts.prefix` (or the exact key). */
export function watchLog(source: WatchSource, opts: WatchOptions): KvWatch {
  return { [Symbol.asyncIterator]: () => iterate(source, opts) };
}

async function* iterate(source: WatchSource, opts: WatchOptions): AsyncGenerator<KvWatchResponse> {
  let cursor = Math.max(1, opts.fromRevision);
  const matches = opts.exact ? (k: string) => k === opts.prefix : (k: string) => k.startsWith(opts.prefix);
  while (!opts.signal.aborted) {
    if (source.closed()) throw new KvError('Unavailable', 'store closed');
    // Listen before reading, so a write committed between the read and the wait is not missed.
    const next = nextWrite(source.wake(), opts.signal);
    let page: LogEntry[];
    try {
      const compacted = source.compacted();
      if (cursor <= compacted) throw new KvError('Compacted', 'mvcc: required revision has been compacted', compacted);
      page = source.read(cursor, PAGE);
    } catch (err) {
      next.cancel();
      throw err instanceof KvError ? err : new KvError('Internal', `embedded store: ${errorMessage(err)}`);
    }
    if (page.length > 0) {
      next.cancel();
      cursor = page[page.length - 1].revision + 1;
      const events = page
        .filter((e) => matches(e.kv.key))
        .map((e) => ({ type: e.type, kv: e.kv, ...(e.prevKv ? { prevKv: e.prevKv } : {}) }));
      yield { events, revision: cursor - 1 };
      continue;
    }
    await next.promise;
  }
}

/** A promise for the next 'write' event or the abort of `signal`, with a way to stop listening. */
function nextWrite(target: EventTarget, signal: AbortSignal): { promise: Promise<void>; cancel: () => void } {
  let done!: () => void;
  const promise = new Promise<void>((resolve) => (done = resolve));
  const cancel = () => {
    target.removeEventListener('write', done);
    signal.removeEventListener('abort', done);
    done();
  };
  target.addEventListener('write', done, { once: true });
  signal.addEventListener('abort', done, { once: true });
  return { promise: promise.then(cancel), cancel };
}
