/**
 * An etcd watch as an async iterable of event batches (one batch per etcd watch response),
 * with previous key-values. A compacted start revision ends the iteration with KvError
 * 'Compacted'; a consumer more than `maxPending` batches behind is cut off with 'Unavailable'
 * rather than buffering without bound. Aborting the signal cancels the etcd watch at once.
 */
import type { Etcd3, IWatchResponse, Watcher } from 'etcd3';
import { KvError, type KvEvent, type KvWatch, type KvWatchResponse, type WatchOptions } from '../types.js';
import { toKeyValue, toKvError } from './etcd-store.js';

const MAX_PENDING = 10_000;

/** True when reading at `revision` fails because it is compacted. */
async function isCompacted(client: Etcd3, revision: number): Promise<boolean> {
  try {
    await client.kv.range({ key: Buffer.from('compact_rev_key'), revision: Math.max(1, revision) });
    return false;
  } catch (err) {
    return /compacted/.test(String((err as Error)?.message));
  }
}

export function etcdWatch(client: Etcd3, opts: WatchOptions, registry: Set<AbortController>): KvWatch {
  return {
    async *[Symbol.asyncIterator]() {
      const local = new AbortController();
      const onAbort = () => local.abort();
      if (opts.signal.aborted) return;
      opts.signal.addEventListener('abort', onAbort, { once: true });
      registry.add(local);
      const pending: KvWatchResponse[] = [];
      let failure = null as KvError | null;
      let ended = false;
      let wake: (() => void) | null = null;
      const notify = () => {
        wake?.();
        wake = null;
      };
      let watcher: Watcher | undefined;
      try {
        const builder = client.watch().startRevision(String(Math.max(1, opts.fromRevision))).withPreviousKV();
        const w = await (opts.exact ? builder.key(opts.prefix) : builder.prefix(opts.prefix)).create();
        watcher = w;
        w.on('data', (res: IWatchResponse) => {
          if (res.compact_revision && Number(res.compact_revision) > 0) {
            failure = new KvError('Compacted', 'mvcc: required revision has been compacted', Number(res.compact_revision));
          } else {
            // Event responses and progress notifications alike advance the watcher's revision.
            const events: KvEvent[] = res.events.map((ev) => ({
              type: ev.type === 'Delete' ? 'delete' : 'put',
              kv: ev.type === 'Delete' ? { ...toKeyValue(ev.kv), value: '' } : toKeyValue(ev.kv),
              prevKv: ev.prev_kv ? toKeyValue(ev.prev_kv) : undefined,
            }));
            pending.push({ events, revision: Number(res.header.revision) });
            if (pending.length > MAX_PENDING) failure = new KvError('Unavailable', 'watch consumer too slow');
          }
          notify();
        });
        w.on('error', (err: unknown) => {
          // etcd cancels a watch whose start revision is compacted; the client reports it as an
          // error with an empty reason, so ask storage whether that revision is still readable.
          failure = toKvError(err);
          void isCompacted(client, opts.fromRevision).then((compacted) => {
            if (compacted) failure = new KvError('Compacted', 'mvcc: required revision has been compacted');
            ended = true;
            notify();
          });
        });
        w.on('end', () => {
          ended = true;
          notify();
        });
        local.signal.addEventListener('abort', notify, { once: true });
        while (!local.signal.aborted) {
          if (pending.length) {
            yield pending.shift()!;
            continue;
          }
          if (ended) throw failure ?? new KvError('Unavailable', 'etcd watch ended');
          if (failure && failure.code !== 'Internal') throw failure;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } catch (err) {
        if (!local.signal.aborted) throw toKvError(err);
      } finally {
        opts.signal.removeEventListener('abort', onAbort);
        registry.delete(local);
        // A watch etcd already cancelled never answers a cancel request: do not wait on it.
        if (watcher && !ended) await Promise.race([watcher.cancel().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
      }
    },
  };
}
