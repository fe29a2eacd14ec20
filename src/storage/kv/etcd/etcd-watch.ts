/**
 * An etcd watch as an async iterable of event batches (one batch per etcd watch response),
 * with previous key-values (upstream: k8s.io/apiserver pkg/storage/etcd3/watcher.go).
 *  - Losing the member that serves the watch stream is invisible: the etcd3 client re-opens the
 *    stream on another member, and the watch resumes at the revision after the last event it
 *    delivered (etcd's Go client rule, clientv3/watch.go). The etcd3 client would resume after
 *    the response's header revision instead, which skips events when the watch was still
 *    catching up, so that start revision is overridden after every response.
 *  - Losing etcd is not: the iteration ends with KvError 'Unavailable' when the shared liveness
 *    probe fails (see etcd-liveness.ts) or the stream stays disconnected for `reconnectMs`.
 *  - A compacted start revision ends it with KvError 'Compacted'; a consumer more than
 *    `MAX_PENDING` batches behind is cut off with 'Unavailable' rather than buffering without bound.
 *  - Aborting the signal cancels the etcd watch at once.
 */
import type { Etcd3, IWatchResponse, Watcher } from 'etcd3';
import { KvError, type KvEvent, type KvWatch, type KvWatchResponse, type WatchOptions } from '../types.js';
import { toKeyValue, toKvError } from './etcd-store.js';
import type { EtcdLiveness } from './etcd-liveness.js';

const MAX_PENDING = 10_000;

/** What a watch needs from its store. */
export interface EtcdWatchDeps {
  readonly client: Etcd3;
  /** Open watches (aborted when the store closes). */
  readonly registry: Set<AbortController>;
  readonly liveness: EtcdLiveness;
  /** Milliseconds a watch may stay unconnected (at start or after losing its stream) before it ends. */
  readonly reconnectMs: number;
}

/** True when reading at `revision` fails because it is compacted. */
async function isCompacted(client: Etcd3, revision: number): Promise<boolean> {
  try {
    await client.kv.range({ key: Buffer.from('compact_rev_key'), revision: Math.max(1, revision) }, { deadline: Date.now() + 5000 });
    return false;
  } catch (err) {
    return /compacted/.test(String((err as Error)?.message));
  }
}

function toResponse(res: IWatchResponse): KvWatchResponse {
  const events: KvEvent[] = res.events.map((ev) => ({
    type: ev.type === 'Delete' ? 'delete' : 'put',
    kv: ev.type === 'Delete' ? { ...toKeyValue(ev.kv), value: '' } : toKeyValue(ev.kv),
    prevKv: ev.prev_kv ? toKeyValue(ev.prev_kv) : undefined,
  }));
  // A catching-up watch gets the store's current revision as header with only part of the
  // events: it has seen everything up to its last event only.
  const last = events.at(-1);
  return { events, revision: last ? last.kv.modRevision : Number(res.header.revision) };
}

/** Watch `opts.prefix` from `opts.fromRevision`; see the file comment. */
export function etcdWatch(deps: EtcdWatchDeps, opts: WatchOptions): KvWatch {
  const { client, registry, liveness } = deps;
  return {
    async *[Symbol.asyncIterator]() {
      if (opts.signal.aborted) return;
      const local = new AbortController();
      const onAbort = () => local.abort();
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
      const fail = (err: KvError) => {
        failure ??= err;
        notify();
      };
      // The first revision not yet delivered: where a re-opened stream must resume.
      let next = Math.max(1, opts.fromRevision);
      let unconnected: NodeJS.Timeout | undefined;
      const startReconnectTimer = () => {
        clearTimeout(unconnected);
        unconnected = setTimeout(() => fail(new KvError('Unavailable', `etcd unavailable: watch not connected for ${deps.reconnectMs} ms`)), deps.reconnectMs);
      };
      const unsubscribe = liveness.subscribe(fail);
      let watcher: Watcher | undefined;
      try {
        const plain = client.watch().startRevision(String(next));
        const builder = opts.prevKv === false ? plain : plain.withPreviousKV();
        const w = (opts.exact ? builder.key(opts.prefix) : builder.prefix(opts.prefix)).watcher();
        watcher = w;
        startReconnectTimer();
        // Registered after the client's own listeners, so these overrides win.
        w.on('connected', () => {
          clearTimeout(unconnected);
          w.request.start_revision = String(next);
        });
        w.on('disconnected', startReconnectTimer);
        w.on('data', (res: IWatchResponse) => {
          if (res.compact_revision && Number(res.compact_revision) > 0) {
            fail(new KvError('Compacted', 'mvcc: required revision has been compacted', Number(res.compact_revision)));
            return;
          }
          // Event responses and progress notifications alike advance the watcher's revision.
          const response = toResponse(res);
          next = Math.max(next, response.revision + 1);
          w.request.start_revision = String(next);
          pending.push(response);
          if (pending.length > MAX_PENDING) fail(new KvError('Unavailable', 'watch consumer too slow'));
          notify();
        });
        w.on('error', (err: unknown) => {
          // etcd cancels a watch whose start revision is compacted; the client reports it as an
          // error with an empty reason, so ask storage whether that revision is still readable.
          const cause = toKvError(err);
          void isCompacted(client, next).then((compacted) => {
            failure ??= compacted ? new KvError('Compacted', 'mvcc: required revision has been compacted') : cause;
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
          if (failure && failure.code !== 'Internal') throw failure;
          if (ended) throw failure ?? new KvError('Unavailable', 'etcd watch ended');
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } catch (err) {
        if (!local.signal.aborted) throw toKvError(err);
      } finally {
        clearTimeout(unconnected);
        unsubscribe();
        opts.signal.removeEventListener('abort', onAbort);
        registry.delete(local);
        // A watch etcd already cancelled never answers a cancel request: do not wait on it.
        if (watcher && !ended) await Promise.race([watcher.cancel().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
      }
    },
  };
}
