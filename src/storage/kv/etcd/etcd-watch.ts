/**
 * An etcd watch as an async iterable of event batches (one batch per etcd watch response),
 * over one gRPC Watch stream of its own on the KV client's channels (upstream: k8s.io/apiserver
 * pkg/storage/etcd3/watcher.go, which watches with clientv3.WithRequireLeader and
 * WithProgressNotify).
 *  - The stream asks for a leader (`hasleader` metadata), so a member cut off from its
 *    cluster ends the stream instead of going silent, and for progress notifications, which
 *    advance the watch's revision while nothing under the prefix changes.
 *  - Losing the member that serves the stream is invisible: the stream is re-opened on the
 *    next member (50 ms backoff doubling to 2 s), resuming at the revision after the last
 *    event delivered (etcd's Go client rule, clientv3/watch.go).
 *  - Losing etcd is not: the iteration ends with KvError 'Unavailable' when the shared liveness
 *    probe fails (see etcd-liveness.ts) or no stream has been established for `reconnectMs`.
 *  - A compacted start revision ends it with KvError 'Compacted' (carrying the compaction
 *    revision); a consumer more than `MAX_PENDING` batches behind is cut off with
 *    'Unavailable' rather than buffering without bound.
 *  - Aborting the signal cancels the stream at once, and with it etcd's watcher.
 *  - `requestProgress()` sends a progress request on the stream serving it now; etcd answers
 *    with a response without events carrying its current revision.
 */
import { GrpcCode, GrpcError, type StreamCall } from './grpc/grpc-channel.js';
import type { EtcdKvClient } from './grpc/etcd-kv-client.js';
import { int, watchCodec, type EtcdKeyValue, type WatchResponse } from './grpc/etcd-messages.js';
import {
  KvError,
  prefixEnd,
  type KeyValue,
  type KvEvent,
  type KvWatch,
  type KvWatchResponse,
  type WatchOptions,
} from '../types.js';
import { toKvError } from './etcd-errors.js';
import type { EtcdLiveness } from './etcd-liveness.js';
import { errorMessage } from '../../../api/error-message.js';

const MAX_PENDING = 10_000;
const WATCH_PATH = '/etcdserverpb.Watch/Watch';
/** rpctypes.MetadataRequireLeaderKey / MetadataHasLeader (go.etcd.io/etcd api/v3rpc/rpctypes/md.go). */
const REQUIRE_LEADER = { hasleader: 'true' };
/** Stream failures that another attempt (on another member) may not meet again. */
const TRANSIENT = new Set<number>([
  0,
  GrpcCode.CANCELLED,
  GrpcCode.UNKNOWN,
  GrpcCode.DEADLINE_EXCEEDED,
  GrpcCode.INTERNAL,
  GrpcCode.UNAVAILABLE,
]);

/** What a watch needs from its store. */
export interface EtcdWatchDeps {
  readonly kv: EtcdKvClient;
  /** Open watches (aborted when the store closes). */
  readonly registry: Set<AbortController>;
  readonly liveness: EtcdLiveness;
  /** Milliseconds a watch may stay without a stream (at start or after losing one) before it ends. */
  readonly reconnectMs: number;
  /** A decoded key-value as the store's own. */
  readonly toKeyValue: (kv: EtcdKeyValue) => KeyValue;
}

const buf = (s: string) => Buffer.from(s, 'utf8');

/** Our response of an etcd watch response with events or a progress notification. */
function toResponse(res: WatchResponse, toKeyValue: (kv: EtcdKeyValue) => KeyValue): KvWatchResponse {
  const events: KvEvent[] = res.events.map((ev) => {
    const kv = toKeyValue(ev.kv ?? {});
    const prevKv = ev.prev_kv ? toKeyValue(ev.prev_kv) : undefined;
    return ev.type === 1 ? { type: 'delete', kv: { ...kv, value: '' }, prevKv } : { type: 'put', kv, prevKv };
  });
  // A catching-up watch gets the store's current revision as header with only part of the
  // events: it has seen everything up to its last event only.
  const last = events.at(-1);
  return { events, revision: last ? last.kv.modRevision : int(res.header?.revision) };
}

/** Watch `opts.prefix` from `opts.fromRevision`; see the file comment. */
export function etcdWatch(deps: EtcdWatchDeps, opts: WatchOptions): KvWatch {
  const { registry, liveness } = deps;
  // The stream serving the iteration now (also where progress requests go).
  let call: StreamCall | undefined;
  return {
    requestProgress() {
      call?.send(watchCodec.encode({ progress_request: {} }));
    },
    async *[Symbol.asyncIterator]() {
      if (opts.signal.aborted) return;
      const local = new AbortController();
      const onAbort = () => local.abort();
      opts.signal.addEventListener('abort', onAbort, { once: true });
      registry.add(local);
      const pending: KvWatchResponse[] = [];
      let failure = null as KvError | null;
      let wake: (() => void) | null = null;
      const notify = () => {
        wake?.();
        wake = null;
      };
      const fail = (err: KvError) => {
        failure ??= err;
        call?.cancel();
        call = undefined;
        notify();
      };
      // The first revision not yet delivered: where a re-opened stream must resume.
      let next = Math.max(1, opts.fromRevision);
      let backoff = 50;
      let unconnected: NodeJS.Timeout | undefined;
      let retry: NodeJS.Timeout | undefined;
      const awaitConnection = () => {
        unconnected ??= setTimeout(
          () => fail(new KvError('Unavailable', `etcd unavailable: watch not connected for ${deps.reconnectMs} ms`)),
          deps.reconnectMs,
        );
      };
      const handle = (res: WatchResponse) => {
        if (int(res.compact_revision) > 0) {
          fail(new KvError('Compacted', 'mvcc: required revision has been compacted', int(res.compact_revision)));
        } else if (res.canceled) {
          fail(toKvError(new Error(`etcd cancelled the watch: ${res.cancel_reason || 'no reason given'}`)));
        } else if (res.created) {
          // Established. Its header is etcd's current revision, not what the watch has seen.
          clearTimeout(unconnected);
          unconnected = undefined;
          backoff = 50;
        } else {
          // Events, or a progress notification: either advances the watch's revision.
          const response = toResponse(res, deps.toKeyValue);
          next = Math.max(next, response.revision + 1);
          pending.push(response);
          if (pending.length > MAX_PENDING) fail(new KvError('Unavailable', 'watch consumer too slow'));
          notify();
        }
      };
      const lost = (err: unknown) => {
        if (local.signal.aborted || failure) return;
        if (err instanceof GrpcError && !TRANSIENT.has(err.code)) return fail(toKvError(err));
        awaitConnection();
        retry = setTimeout(open, backoff);
        backoff = Math.min(backoff * 2, 2000);
      };
      const open = () => {
        if (local.signal.aborted || failure) return;
        awaitConnection();
        let opened: StreamCall;
        try {
          opened = deps.kv.stream(WATCH_PATH, REQUIRE_LEADER, {
            onMessage: (bytes) => {
              let res: WatchResponse;
              try {
                res = watchCodec.decode(bytes);
              } catch (err) {
                return fail(new KvError('Internal', `cannot decode an etcd watch response: ${errorMessage(err)}`));
              }
              handle(res);
            },
            onEnd: (err) => {
              if (call === opened) call = undefined;
              lost(err ?? new GrpcError(0, 'etcd ended the watch stream'));
            },
          });
        } catch (err) {
          // No member can be dialled now (every circuit open): try again after the backoff.
          return lost(err);
        }
        call = opened;
        const range = opts.exact ? {} : { range_end: buf(prefixEnd(opts.prefix)) };
        opened.send(
          watchCodec.encode({
            create_request: {
              key: buf(opts.prefix),
              ...range,
              start_revision: next,
              progress_notify: true,
              prev_kv: opts.prevKv !== false,
            },
          }),
        );
      };
      const unsubscribe = liveness.subscribe(fail);
      local.signal.addEventListener('abort', notify, { once: true });
      try {
        open();
        while (!local.signal.aborted) {
          if (pending.length) {
            yield pending.shift()!;
            continue;
          }
          if (failure) throw failure;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        clearTimeout(unconnected);
        clearTimeout(retry);
        unsubscribe();
        opts.signal.removeEventListener('abort', onAbort);
        registry.delete(local);
        call?.cancel();
        call = undefined;
      }
    },
  };
}
