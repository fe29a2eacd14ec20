/**
 * The key-value contract on etcd v3 through the `etcd3` client, using only upstream's
 * transaction shapes (k8s.io/apiserver pkg/storage/etcd3/store.go), so kine endpoints work too.
 * Every unary call carries a deadline, so an unreachable etcd fails within `requestTimeoutMs`
 * as KvError 'Unavailable' instead of hanging. Compaction and future-revision errors map to
 * 'Compacted' / 'FutureRevision'.
 */
import { Etcd3, type IKeyValue, type ITxnResponse } from 'etcd3';
import { noop } from 'cockatiel';
import { KvError, type KeyValue, type KvStore, type KvWatch, type RangeOptions, type RangeResult, type TxnResult, type WatchOptions } from '../types.js';
import { etcdWatch } from './etcd-watch.js';

export interface EtcdStoreOptions {
  /** Deadline of every unary call in milliseconds (default 5000). */
  readonly requestTimeoutMs?: number;
  /** Connection dial timeout in milliseconds (default 5000). */
  readonly dialTimeoutMs?: number;
}

const buf = (s: string) => Buffer.from(s, 'utf8');

/** Convert an etcd3 key-value (string revisions) to ours. */
export function toKeyValue(kv: IKeyValue): KeyValue {
  return {
    key: kv.key.toString('utf8'),
    value: kv.value.toString('utf8'),
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
    version: Number(kv.version),
    lease: Number(kv.lease ?? 0),
  };
}

/** Map an etcd / gRPC failure to a KvError. */
export function toKvError(err: unknown): KvError {
  if (err instanceof KvError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/compacted/.test(message)) return new KvError('Compacted', 'mvcc: required revision has been compacted');
  if (/future revision/.test(message)) return new KvError('FutureRevision', 'mvcc: required revision is a future revision');
  if (/deadline|unavailable|ECONNREFUSED|connect|No connection|closed|circuit|timed? ?out|14 UNAVAILABLE|4 DEADLINE/i.test(message)) {
    return new KvError('Unavailable', `etcd unavailable: ${message}`);
  }
  return new KvError('Internal', message);
}

export class EtcdKvStore implements KvStore {
  readonly backend = 'etcd';
  private readonly client: Etcd3;
  private readonly timeoutMs: number;
  private readonly watches = new Set<AbortController>();
  /** etcd lease ids are int64: callers get small local numbers, mapped to the decimal ids. */
  private readonly leaseIds = new Map<number, string>();
  private readonly leaseNumbers = new Map<string, number>();

  constructor(hosts: readonly string[], options: EtcdStoreOptions = {}) {
    this.timeoutMs = options.requestTimeoutMs ?? 5000;
    this.client = new Etcd3({
      hosts: [...hosts],
      dialTimeout: options.dialTimeoutMs ?? 5000,
      // No retries or circuit breaking inside the client: the API layer answers at once.
      faultHandling: { host: () => noop, global: noop },
      defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + this.timeoutMs }),
    });
  }

  async range(opts: RangeOptions): Promise<RangeResult> {
    try {
      const res = await this.client.kv.range({
        key: buf(opts.start),
        range_end: opts.end === undefined ? undefined : buf(opts.end),
        revision: opts.revision && opts.revision > 0 ? opts.revision : undefined,
        limit: opts.limit && opts.limit > 0 ? opts.limit : undefined,
      });
      return { kvs: res.kvs.map((kv) => this.local(toKeyValue(kv), kv.lease)), more: Boolean(res.more), count: Number(res.count), revision: Number(res.header.revision) };
    } catch (err) {
      throw toKvError(err);
    }
  }

  async create(key: string, value: string, lease?: number): Promise<TxnResult> {
    return this.txnPut(key, value, 0, lease);
  }

  async update(key: string, value: string, expectedModRevision: number, lease?: number): Promise<TxnResult> {
    return this.txnPut(key, value, expectedModRevision, lease);
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    try {
      const k = buf(key);
      const res = await this.client.kv.txn({
        compare: expectedModRevision === undefined ? [] : [{ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
        success: [{ request_delete_range: { key: k, prev_kv: true } }],
        failure: [{ request_range: { key: k } }],
      });
      const revision = Number(res.header.revision);
      if (!res.succeeded) return { succeeded: false, revision, current: this.currentOf(res) };
      const prev = res.responses[0]?.response_delete_range?.prev_kvs?.[0];
      if (!prev) return { succeeded: false, revision, current: null };
      return { succeeded: true, revision, current: this.local(toKeyValue(prev), prev.lease) };
    } catch (err) {
      throw toKvError(err);
    }
  }

  watch(opts: WatchOptions): KvWatch {
    return etcdWatch(this.client, opts, this.watches);
  }

  async currentRevision(): Promise<number> {
    return (await this.range({ start: 'compact_rev_key', limit: 1 })).revision;
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.client.kv.compact({ revision, physical: true });
    } catch (err) {
      throw toKvError(err);
    }
  }

  async grantLease(ttlSeconds: number): Promise<number> {
    try {
      const res = await this.client.leaseClient.leaseGrant({ TTL: ttlSeconds });
      const local = this.leaseIds.size + 1;
      this.leaseIds.set(local, String(res.ID));
      this.leaseNumbers.set(String(res.ID), local);
      return local;
    } catch (err) {
      throw toKvError(err);
    }
  }

  async close(): Promise<void> {
    for (const w of this.watches) w.abort();
    this.client.close();
  }

  /** The key-value a failed transaction's else-branch read, if any. */
  private currentOf(res: ITxnResponse): KeyValue | null {
    const kv = res.responses[0]?.response_range?.kvs?.[0];
    return kv ? this.local(toKeyValue(kv), kv.lease) : null;
  }

  /** Replace the (imprecise) numeric lease of a key-value with this store's local number. */
  private local(kv: KeyValue, rawLease: string | number | undefined): KeyValue {
    const id = rawLease === undefined ? '0' : String(rawLease);
    return id === '0' ? { ...kv, lease: 0 } : { ...kv, lease: this.leaseNumbers.get(id) ?? 0 };
  }

  private async txnPut(key: string, value: string, expectedModRevision: number, lease?: number): Promise<TxnResult> {
    try {
      const k = buf(key);
      const res = await this.client.kv.txn({
        compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
        success: [{ request_put: { key: k, value: buf(value), lease: lease ? this.leaseIds.get(lease) : undefined } }],
        failure: [{ request_range: { key: k } }],
      });
      const revision = Number(res.header.revision);
      if (!res.succeeded) return { succeeded: false, revision, current: this.currentOf(res) };
      return {
        succeeded: true,
        revision,
        current: { key, value, createRevision: expectedModRevision === 0 ? revision : 0, modRevision: revision, version: 0, lease: lease ?? 0 },
      };
    } catch (err) {
      throw toKvError(err);
    }
  }
}


