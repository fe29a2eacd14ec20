/**
 * The key-value contract on etcd v3, using only upstream's
 * transaction shapes (k8s.io/apiserver pkg/storage/etcd3/store.go), so kine endpoints work too.
 *  - Range and Txn, the request hot path, and watches go over our own gRPC channels (grpc/,
 *    about a third of the general-purpose client's CPU per call); leases, compaction and
 *    status go through the `etcd3` client.
 *  - Every call has one deadline (`requestTimeoutMs`): an unreachable etcd fails within it as
 *    KvError 'Unavailable' instead of hanging.
 *  - Within that deadline a call that failed because a member is gone (or is electing a
 *    leader) is retried on another member (etcd-retry.ts), and writes are made safe to retry
 *    (etcd-writes.ts). Each member sits behind a circuit breaker that opens on connection
 *    failures, so a dead member is skipped until it answers again.
 *  - gRPC message limits are those of etcd's Go client, which upstream uses: responses of any
 *    size (receive limit math.MaxInt32, so unpaged lists over 4 MiB work), requests up to
 *    2 MiB (etcd's default 1.5 MiB request limit plus gRPC overhead). Dead connections are
 *    found by keepalive pings as upstream's storagebackend/factory/etcd3.go (30 s, 10 s
 *    timeout) on the etcd3 client, and by a ping after any timed-out call on our channels;
 *    while watches are open, the liveness probe (etcd-liveness.ts) makes such calls every 4 s.
 *  - Compaction and future-revision errors map to 'Compacted' / 'FutureRevision'.
 */
import { Etcd3 } from 'etcd3';
import { circuitBreaker, ConsecutiveBreaker, handleWhen, noop } from 'cockatiel';
import {
  type KeyValue,
  type KvStore,
  type KvWatch,
  type RangeOptions,
  type RangeResult,
  type TxnResult,
  type WatchOptions,
  type WatchProgressMode,
} from '../types.js';
import { toKvError } from './etcd-errors.js';
import { etcdWatch } from './etcd-watch.js';
import { EtcdLiveness } from './etcd-liveness.js';
import { isConnectionFailure, withRetry, type RetryOptions } from './etcd-retry.js';
import { deleteWithRetry, putWithRetry, type TxnAttempts } from './etcd-writes.js';
import type { EtcdCredentials } from './etcd-tls.js';
import { EtcdKvClient } from './grpc/etcd-kv-client.js';
import { int, type EtcdKeyValue, type TxnResponse } from './grpc/etcd-messages.js';
import { errorMessage } from '../../../api/error-message.js';

export { toKvError };

export interface EtcdStoreOptions {
  /** Deadline of every call in milliseconds, retries included (default 4500, so that a request
   * needing one storage call answers within 5 s even when etcd does not). */
  readonly requestTimeoutMs?: number;
  /**
   * Longest single attempt in milliseconds when there are several members (default 2000), so
   * that a call stuck on a member whose leader died is retried on another in time. Unpaged
   * range reads (possibly large lists) are not cut.
   */
  readonly attemptTimeoutMs?: number;
  /** Connection dial timeout in milliseconds (default 5000). */
  readonly dialTimeoutMs?: number;
  /** Milliseconds between liveness probes while watches are open (default 4000). */
  readonly livenessIntervalMs?: number;
  /** Deadline of one liveness probe in milliseconds (default 3000). */
  readonly livenessTimeoutMs?: number;
  /**
   * TLS for every member (etcd-tls.ts reads it from upstream's --etcd-cafile, --etcd-certfile
   * and --etcd-keyfile). Absent: TLS with the system's roots for `https://` members, plain
   * connections for `http://` ones. Given, every member is dialled with TLS.
   */
  readonly credentials?: EtcdCredentials;
}

/** gRPC limits of etcd's Go client (go.etcd.io/etcd clientv3/options.go). */
const MAX_CALL_RECV_MSG_SIZE = 2 ** 31 - 1;
const MAX_CALL_SEND_MSG_SIZE = 2 * 1024 * 1024;

const buf = (s: string) => Buffer.from(s, 'utf8');

/** Convert a key-value decoded by the KV client to ours, with the lease given separately. */
function fromEtcd(kv: EtcdKeyValue, lease: number): KeyValue {
  return {
    key: utf8(kv.key),
    value: utf8(kv.value),
    createRevision: int(kv.create_revision),
    modRevision: int(kv.mod_revision),
    version: int(kv.version),
    lease,
  };
}

/** Text of decoded bytes; absent (a default left out on the wire, e.g. keys_only values) is ''. */
function utf8(b: Uint8Array | undefined): string {
  if (!b || b.length === 0) return '';
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
}

/** The etcd backend; see the file comment. Every method throws only {@link KvError}. */
export class EtcdKvStore implements KvStore {
  readonly backend = 'etcd';
  private readonly client: Etcd3;
  /** Range and Txn, the hot path, on our own unary gRPC channels (grpc/). */
  private readonly kv: EtcdKvClient;
  private readonly retry: RetryOptions;
  private readonly capped: RetryOptions;
  private readonly probe: RetryOptions;
  private readonly liveness: EtcdLiveness;
  private readonly watches = new Set<AbortController>();
  /** etcd lease ids are int64: callers get small local numbers, mapped to the decimal ids. */
  private readonly leaseIds = new Map<number, string>();
  private readonly leaseNumbers = new Map<string, number>();
  private readonly attempts: TxnAttempts;
  /** Why a member's circuit last opened ("host: message"), told when no member is reachable. */
  private lastConnectionFailure?: string;
  private progressMode?: Promise<WatchProgressMode>;

  /** `hosts`: `http(s)://host:port` of each member. Does not connect until the first call. */
  constructor(hosts: readonly string[], options: EtcdStoreOptions = {}) {
    const timeoutMs = options.requestTimeoutMs ?? 4500;
    const cap = hosts.length > 1 ? (options.attemptTimeoutMs ?? 2000) : undefined;
    this.retry = { deadlineMs: timeoutMs };
    this.capped = { deadlineMs: timeoutMs, attemptCapMs: cap };
    const probeMs = options.livenessTimeoutMs ?? 3000;
    this.probe = { deadlineMs: probeMs, attemptCapMs: cap && Math.min(cap, probeMs / 2) };
    this.client = new Etcd3({
      hosts: [...hosts],
      dialTimeout: options.dialTimeoutMs ?? 5000,
      // etcd3 types rootCertificate as required; gRPC's createSsl takes none as the system's roots.
      credentials: options.credentials as { rootCertificate: Buffer } | undefined,
      grpcOptions: {
        'grpc.max_receive_message_length': MAX_CALL_RECV_MSG_SIZE,
        'grpc.max_send_message_length': MAX_CALL_SEND_MSG_SIZE,
        'grpc.keepalive_time_ms': 30_000,
        'grpc.keepalive_timeout_ms': 10_000,
      },
      faultHandling: {
        // A member whose connection fails is skipped for 2 s, then tried again by one call.
        host: (host) => {
          const breaker = circuitBreaker(handleWhen(isConnectionFailure), {
            halfOpenAfter: 2000,
            breaker: new ConsecutiveBreaker(1),
          });
          breaker.onBreak((reason) => {
            if ('error' in reason)
              this.lastConnectionFailure = `${host}: ${reason.error.message.replace(/\s+/g, ' ').replace(/\.? Resolution note: ?$/, '')}`;
          });
          return breaker;
        },
        // Retries are ours (withRetry), bounded by the call's deadline.
        global: noop,
      },
      defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeoutMs }),
    });
    const tls = options.credentials;
    this.kv = new EtcdKvClient(hosts, {
      tls: tls && { ca: tls.rootCertificate, cert: tls.certChain, key: tls.privateKey },
      dialTimeoutMs: options.dialTimeoutMs ?? 5000,
      maxSendBytes: MAX_CALL_SEND_MSG_SIZE,
      onConnectionFailure: (message) => (this.lastConnectionFailure = message.replace(/\s+/g, ' ')),
    });
    this.liveness = new EtcdLiveness(() => this.rawRange({ start: 'compact_rev_key', limit: 1 }, this.probe), {
      intervalMs: options.livenessIntervalMs,
    });
    this.attempts = {
      put: (key, value, expected, lease, deadline) => this.txnPut(key, value, expected, lease, deadline),
      delete: (key, expected, deadline) => this.txnDelete(key, expected, deadline),
      get: async (key, revision, deadline) => {
        const kv = (await this.kv.range({ key: buf(key), revision }, deadline)).kvs[0];
        return kv ? this.toLocal(kv) : null;
      },
    };
  }

  async range(opts: RangeOptions): Promise<RangeResult> {
    // An unpaged range over a prefix may be a large list: give it the whole deadline.
    const unbounded = opts.end !== undefined && !(opts.limit && opts.limit > 0);
    return this.rawRange(opts, unbounded ? this.retry : this.capped);
  }

  async create(key: string, value: string, lease?: number): Promise<TxnResult> {
    return this.guard(() => putWithRetry(this.attempts, key, value, 0, lease, this.capped));
  }

  async update(key: string, value: string, expectedModRevision: number, lease?: number): Promise<TxnResult> {
    return this.guard(() => putWithRetry(this.attempts, key, value, expectedModRevision, lease, this.capped));
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    return this.guard(() => deleteWithRetry(this.attempts, key, expectedModRevision, this.capped));
  }

  watch(opts: WatchOptions): KvWatch {
    return etcdWatch(
      {
        kv: this.kv,
        registry: this.watches,
        liveness: this.liveness,
        reconnectMs: 10_000,
        toKeyValue: (kv) => this.toLocal(kv),
      },
      opts,
    );
  }

  async currentRevision(): Promise<number> {
    return (await this.range({ start: 'compact_rev_key', limit: 1 })).revision;
  }

  /**
   * 'on-request' when the etcd answering is at least 3.4.31, 3.5.13 or 3.6 (progress answers
   * wait for synced watchers: etcd #15220, upstream's etcdfeature checker), else 'none'; decided
   * once per store from the maintenance status, and 'none' until a status was read.
   */
  async watchProgress(): Promise<WatchProgressMode> {
    this.progressMode ??= this.guard(() =>
      withRetry(async (deadline) => (await this.client.maintenance.status({ deadline })).version, this.capped),
    ).then(
      (version) => (progressRequestsSafe(version) ? 'on-request' : 'none'),
      () => {
        this.progressMode = undefined; // ask again next time
        return 'none';
      },
    );
    return this.progressMode;
  }

  /** etcd's dbSize (bytes physically allocated) from the maintenance status of the member answering. */
  async dbSizeBytes(): Promise<number> {
    return this.guard(() =>
      withRetry(async (deadline) => Number((await this.client.maintenance.status({ deadline })).dbSize), this.capped),
    );
  }

  async compact(revision: number): Promise<void> {
    // A retry after an attempt that did compact finds the revision compacted: that is success.
    await this.guard(() =>
      withRetry(async (deadline, n) => {
        try {
          await this.client.kv.compact({ revision, physical: true }, { deadline });
        } catch (err) {
          if (!(n > 0 && /compacted/.test(errorMessage(err)))) throw err;
        }
      }, this.capped),
    );
  }

  async grantLease(ttlSeconds: number): Promise<number> {
    // A retried grant may leave an unused lease behind; it expires after its TTL.
    const res = await this.guard(() =>
      withRetry((deadline) => this.client.leaseClient.leaseGrant({ TTL: ttlSeconds }, { deadline }), this.capped),
    );
    const local = this.leaseIds.size + 1;
    this.leaseIds.set(local, String(res.ID));
    this.leaseNumbers.set(String(res.ID), local);
    return local;
  }

  async close(): Promise<void> {
    this.liveness.close();
    for (const w of this.watches) w.abort();
    this.kv.close();
    this.client.close();
  }

  /** Run `fn`, turning whatever it throws into a KvError. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toKvError(err, this.lastConnectionFailure);
    }
  }

  private rawRange(opts: RangeOptions, retry: RetryOptions): Promise<RangeResult> {
    return this.guard(async () => {
      const req = {
        key: buf(opts.start),
        range_end: opts.end === undefined ? undefined : buf(opts.end),
        revision: opts.revision && opts.revision > 0 ? opts.revision : undefined,
        limit: opts.limit && opts.limit > 0 ? opts.limit : undefined,
        count_only: opts.countOnly || undefined,
        keys_only: opts.keysOnly || undefined,
        min_mod_revision: opts.minModRevision && opts.minModRevision > 0 ? opts.minModRevision : undefined,
      };
      const res = await withRetry((deadline) => this.kv.range(req, deadline), retry);
      const kvs = opts.countOnly ? [] : res.kvs.map((kv) => this.toLocal(kv));
      return { kvs, more: Boolean(res.more), count: int(res.count), revision: int(res.header?.revision) };
    });
  }

  /** The key-value a failed transaction's else-branch read, if any. */
  private currentOf(res: TxnResponse): KeyValue | null {
    const kv = res.responses[0]?.response_range?.kvs?.[0];
    return kv ? this.toLocal(kv) : null;
  }

  /**
   * A decoded key-value as ours, its etcd lease id (int64, looked up exactly as a decimal
   * string, only when there is one) replaced by this store's local lease number (0 for none).
   */
  private toLocal(kv: EtcdKeyValue): KeyValue {
    const lease = kv.lease === undefined || int(kv.lease) === 0 ? 0 : (this.leaseNumbers.get(String(kv.lease)) ?? 0);
    return fromEtcd(kv, lease);
  }

  /** One attempt of Txn(If ModRevision == expected, Then Put, Else Get). */
  private async txnPut(
    key: string,
    value: string,
    expectedModRevision: number,
    lease: number | undefined,
    deadline: number,
  ): Promise<TxnResult> {
    const k = buf(key);
    const res = await this.kv.txn(
      {
        compare: [{ key: k, target: 2, result: 0, mod_revision: expectedModRevision }],
        success: [{ request_put: { key: k, value: buf(value), lease: lease ? this.leaseIds.get(lease) : undefined } }],
        failure: [{ request_range: { key: k } }],
      },
      deadline,
    );
    const revision = int(res.header?.revision);
    if (!res.succeeded) return { succeeded: false, revision, current: this.currentOf(res) };
    return {
      succeeded: true,
      revision,
      current: {
        key,
        value,
        createRevision: expectedModRevision === 0 ? revision : 0,
        modRevision: revision,
        version: 0,
        lease: lease ?? 0,
      },
    };
  }

  /** One attempt of Txn(If ModRevision == expected (when given), Then Delete, Else Get). */
  private async txnDelete(key: string, expectedModRevision: number | undefined, deadline: number): Promise<TxnResult> {
    const k = buf(key);
    const res = await this.kv.txn(
      {
        compare:
          expectedModRevision === undefined
            ? []
            : [{ key: k, target: 2, result: 0, mod_revision: expectedModRevision }],
        success: [{ request_delete_range: { key: k, prev_kv: true } }],
        failure: [{ request_range: { key: k } }],
      },
      deadline,
    );
    const revision = int(res.header?.revision);
    if (!res.succeeded) return { succeeded: false, revision, current: this.currentOf(res) };
    const prev = res.responses[0]?.response_delete_range?.prev_kvs?.[0];
    if (!prev) return { succeeded: false, revision, current: null };
    return { succeeded: true, revision, current: this.toLocal(prev) };
  }
}

/**
 * Whether etcd `version` (e.g. `3.4.23`) answers progress requests only once the stream's
 * watchers have caught up: 3.4.31+, 3.5.13+ and 3.6+ (upstream's etcd feature support checker).
 */
export function progressRequestsSafe(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number];
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}
