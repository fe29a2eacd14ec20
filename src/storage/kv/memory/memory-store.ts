/**
 * The embedded key-value store: in-process MVCC with one global revision, an append-only event
 * log, per-key version history (reads at any uncompacted revision), compaction, leases and
 * watches that replay from the log and then wait on a replaced "next write" promise, so no
 * write between a scan and the wait is missed (the model is kine's in-memory backend).
 *
 * Watchers share the log and keep only a cursor into it: a slow watcher holds no buffer of its
 * own. The log is bounded: past `maxLogEntries` the oldest half is compacted away, and a
 * watcher still reading there fails with 'Compacted' (clients then relist, as with etcd).
 */
import {
  KvError,
  nextKeyValue,
  type KeyValue,
  type KvEvent,
  type KvStore,
  type KvWatch,
  type KvWatchResponse,
  type RangeOptions,
  type RangeResult,
  type TxnResult,
  type WatchOptions,
  type WatchProgressMode,
} from '../types.js';
import { SortedMap } from '../../sorted-map.js';

interface LogEntry extends KvEvent {
  readonly revision: number;
}

export interface MemoryStoreOptions {
  /** Events kept before automatic compaction of the older half (default 200,000). */
  readonly maxLogEntries?: number;
}

export class MemoryKvStore implements KvStore {
  readonly backend = 'memory';
  private revision = 1;
  private compacted = 0;
  private readonly live = new Map<string, KeyValue>();
  /** Every version of every key still in history, oldest first; `null` marks a deletion. */
  private readonly history = new Map<string, { revision: number; kv: KeyValue | null }[]>();
  private readonly keys = new SortedMap<true>();
  private log: LogEntry[] = [];
  private nextWrite = signal();
  private readonly leases = new Map<number, { keys: Set<string>; timer: NodeJS.Timeout }>();
  private nextLease = 1;
  private closed = false;
  private readonly maxLogEntries: number;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxLogEntries = options.maxLogEntries ?? 200_000;
  }

  async range(opts: RangeOptions): Promise<RangeResult> {
    this.assertOpen();
    const rev = opts.revision && opts.revision > 0 ? opts.revision : this.revision;
    if (rev < this.compacted)
      throw new KvError('Compacted', `mvcc: required revision has been compacted`, this.compacted);
    if (rev > this.revision) throw new KvError('FutureRevision', 'mvcc: required revision is a future revision');
    const candidates =
      opts.end === undefined
        ? this.history.has(opts.start)
          ? [opts.start]
          : []
        : this.keys.keys(opts.start, opts.end);
    const kvs: KeyValue[] = [];
    let count = 0;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const minMod = opts.minModRevision ?? 0;
    for (const key of candidates) {
      const kv = rev === this.revision ? this.live.get(key) : this.at(key, rev);
      if (!kv) continue;
      count++;
      if (kvs.length < limit && !opts.countOnly && kv.modRevision >= minMod) kvs.push(kv);
    }
    return { kvs, more: !opts.countOnly && count > kvs.length, count, revision: this.revision };
  }

  async create(key: string, value: string, lease?: number): Promise<TxnResult> {
    this.assertOpen();
    const current = this.live.get(key);
    if (current) return { succeeded: false, revision: this.revision, current };
    return this.put(key, value, lease, undefined);
  }

  async update(key: string, value: string, expectedModRevision: number, lease?: number): Promise<TxnResult> {
    this.assertOpen();
    const current = this.live.get(key);
    if (!current || current.modRevision !== expectedModRevision)
      return { succeeded: false, revision: this.revision, current: current ?? null };
    return this.put(key, value, lease, current);
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    this.assertOpen();
    const current = this.live.get(key);
    if (!current || (expectedModRevision !== undefined && current.modRevision !== expectedModRevision)) {
      return { succeeded: false, revision: this.revision, current: current ?? null };
    }
    this.remove(key, current);
    return { succeeded: true, revision: this.revision, current };
  }

  watch(opts: WatchOptions): KvWatch {
    return { [Symbol.asyncIterator]: () => this.watchIterator(opts) };
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }
  /** Every write reaches every watch as progress. */
  async watchProgress(): Promise<WatchProgressMode> {
    return 'every-write';
  }

  /** An estimate: the UTF-16 bytes of every key and value still held, history included. */
  async dbSizeBytes(): Promise<number> {
    let bytes = 0;
    for (const [key, versions] of this.history)
      for (const v of versions) bytes += 2 * (key.length + (v.kv?.value.length ?? 0));
    return bytes;
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.revision) throw new KvError('FutureRevision', 'mvcc: required revision is a future revision');
    if (revision <= this.compacted)
      throw new KvError('Compacted', 'mvcc: required revision has been compacted', this.compacted);
    this.compacted = revision;
    this.log = this.log.slice(lowerBound(this.log, revision + 1));
    for (const [key, versions] of this.history) {
      // Keep the newest version at or below the compacted revision (it is still readable there).
      let keepFrom = 0;
      for (let i = 0; i < versions.length; i++) if (versions[i].revision <= revision) keepFrom = i;
      const kept = versions.slice(keepFrom);
      if (kept.length === 1 && kept[0].kv === null) {
        this.history.delete(key);
        this.keys.delete(key);
      } else this.history.set(key, kept);
    }
  }

  async grantLease(ttlSeconds: number): Promise<number> {
    this.assertOpen();
    const id = this.nextLease++;
    const timer = setTimeout(() => this.expireLease(id), Math.max(1, ttlSeconds) * 1000);
    timer.unref();
    this.leases.set(id, { keys: new Set(), timer });
    return id;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lease of this.leases.values()) clearTimeout(lease.timer);
    this.leases.clear();
    this.nextWrite.resolve();
  }

  private put(key: string, value: string, lease: number | undefined, prev: KeyValue | undefined): TxnResult {
    const revision = ++this.revision;
    const kv = nextKeyValue(key, value, revision, prev, lease && this.leases.has(lease) ? lease : 0);
    if (prev?.lease && prev.lease !== kv.lease) this.leases.get(prev.lease)?.keys.delete(key);
    if (kv.lease) this.leases.get(kv.lease)!.keys.add(key);
    this.live.set(key, kv);
    this.record(key, { revision, type: 'put', kv, prevKv: prev }, kv);
    return { succeeded: true, revision, current: kv };
  }

  private remove(key: string, prev: KeyValue): void {
    const revision = ++this.revision;
    this.live.delete(key);
    if (prev.lease) this.leases.get(prev.lease)?.keys.delete(key);
    const tombstone: KeyValue = { key, value: '', createRevision: 0, modRevision: revision, version: 0, lease: 0 };
    this.record(key, { revision, type: 'delete', kv: tombstone, prevKv: prev }, null);
  }

  private record(key: string, entry: LogEntry, kv: KeyValue | null): void {
    let versions = this.history.get(key);
    if (!versions) {
      versions = [];
      this.history.set(key, versions);
      this.keys.set(key, true);
    }
    versions.push({ revision: entry.revision, kv });
    this.log.push(entry);
    const wake = this.nextWrite;
    this.nextWrite = signal();
    wake.resolve();
    if (this.log.length > this.maxLogEntries) {
      void this.compact(this.log[Math.floor(this.log.length / 2)].revision).catch(() => undefined);
    }
  }

  private at(key: string, rev: number): KeyValue | undefined {
    const versions = this.history.get(key);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i--) if (versions[i].revision <= rev) return versions[i].kv ?? undefined;
    return undefined;
  }

  private expireLease(id: number): void {
    const lease = this.leases.get(id);
    if (!lease) return;
    this.leases.delete(id);
    for (const key of lease.keys) {
      const kv = this.live.get(key);
      if (kv && kv.lease === id) this.remove(key, kv);
    }
  }

  private async *watchIterator(opts: WatchOptions): AsyncGenerator<KvWatchResponse> {
    let cursor = Math.max(1, opts.fromRevision);
    const matches = opts.exact ? (k: string) => k === opts.prefix : (k: string) => k.startsWith(opts.prefix);
    const aborted = new Promise<void>((resolve) =>
      opts.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    while (!opts.signal.aborted) {
      if (this.closed) throw new KvError('Unavailable', 'store closed');
      if (cursor <= this.compacted)
        throw new KvError('Compacted', 'mvcc: required revision has been compacted', this.compacted);
      const wait = this.nextWrite.promise;
      const batch: KvEvent[] = [];
      const from = cursor;
      let i = lowerBound(this.log, cursor);
      for (; i < this.log.length && batch.length < 1000; i++) {
        const e = this.log[i];
        cursor = e.revision + 1;
        if (matches(e.kv.key)) batch.push({ type: e.type, kv: e.kv, prevKv: e.prevKv });
      }
      // Report progress even when nothing matched; sleep once the log is read to its end.
      if (cursor > from) yield { events: batch, revision: cursor - 1 };
      if (i >= this.log.length) await Promise.race([wait, aborted]);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new KvError('Unavailable', 'store closed');
  }
}

/** A promise with its resolver (Promise.withResolvers needs Node 22). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Index of the first log entry with revision >= rev (log is sorted by revision). */
function lowerBound(log: readonly LogEntry[], rev: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid].revision < rev) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
