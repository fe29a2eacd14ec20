/**
 * The persistent embedded store: the KvStore contract on LMDB (the `lmdb` package, prebuilt
 * binaries, no service to run), for one process with its data under a directory.
 *
 * Layout, in one LMDB environment (`<dir>/store.mdb`):
 *  - `meta`:    'revision' (the store revision), 'compacted', 'nextLease'
 *  - `live`:    key -> KeyValue, the current value of every existing key
 *  - `history`: [key, revision] -> KeyValue, or null for a deletion (reads at old revisions)
 *  - `log`:     revision -> { type, kv, prevKv } (watches replay it; one entry per write)
 *  - `leases`:  lease id -> expiry time (ms since the epoch)
 *
 * Every write is one LMDB transaction that reads, compares and writes atomically and takes the
 * next revision; its promise resolves only once the transaction is committed and flushed to
 * disk, so an acknowledged write survives a crash. Compaction keeps, per key, the newest version
 * at or below the compacted revision, as etcd does.
 */
import { setMaxListeners } from 'node:events';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import {
  KvError,
  nextKeyValue,
  type KeyValue,
  type KvStore,
  type KvWatch,
  type RangeOptions,
  type RangeResult,
  type TxnResult,
  type WatchOptions,
  type WatchProgressMode,
} from '../types.js';
import { lockDataDir } from './data-lock.js';
import { watchLog, type LogEntry } from './embedded-watch.js';
import { errorCode, errorMessage } from '../../../api/error-message.js';

const MAX_REVISION = Number.MAX_SAFE_INTEGER;

/** Map a failure of LMDB or the file system to the contract's error. */
function storageError(err: unknown): KvError {
  if (err instanceof KvError) return err;
  const code = errorCode(err) ?? '';
  const message = `embedded store: ${errorMessage(err)}`;
  return new KvError(/ENOSPC|EIO|EROFS|EACCES|MDB_MAP_FULL/.test(code + message) ? 'Unavailable' : 'Internal', message);
}

export class EmbeddedKvStore implements KvStore {
  readonly backend = 'embedded';
  private readonly root: RootDatabase;
  private readonly meta: Database<number, string>;
  private readonly live: Database<KeyValue, string>;
  private readonly history: Database<KeyValue | null, [string, number]>;
  private readonly log: Database<LogEntry, number>;
  private readonly leases: Database<number, number>;
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly release: () => void;
  private readonly file: string;
  private readonly wake = new EventTarget();
  private closed = false;

  /** Open (creating) the store under `dir`. Throws KvError when the directory is locked or unusable. */
  constructor(dir: string) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw storageError(err);
    }
    setMaxListeners(0, this.wake); // one listener per waiting watch
    this.release = lockDataDir(dir);
    try {
      this.file = join(dir, 'store.mdb');
      this.root = open({ path: this.file, maxDbs: 8, mapSize: 2 * 1024 ** 3 });
      this.meta = this.root.openDB({ name: 'meta' });
      this.live = this.root.openDB({ name: 'live' });
      this.history = this.root.openDB({ name: 'history' });
      this.log = this.root.openDB({ name: 'log' });
      this.leases = this.root.openDB({ name: 'leases' });
      if (this.meta.get('revision') === undefined) this.meta.putSync('revision', 1);
      for (const { key, value } of this.leases.getRange()) this.schedule(key, value);
    } catch (err) {
      this.release();
      throw storageError(err);
    }
  }

  async range(opts: RangeOptions): Promise<RangeResult> {
    this.assertOpen();
    const txn = this.root.useReadTransaction();
    try {
      const current = this.meta.get('revision', { transaction: txn })!;
      const compacted = this.meta.get('compacted', { transaction: txn }) ?? 0;
      const rev = opts.revision && opts.revision > 0 ? opts.revision : current;
      if (rev < compacted) throw new KvError('Compacted', 'mvcc: required revision has been compacted', compacted);
      if (rev > current) throw new KvError('FutureRevision', 'mvcc: required revision is a future revision');
      const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
      const kvs: KeyValue[] = [];
      let count = 0;
      const minMod = opts.minModRevision ?? 0;
      const take = (kv: KeyValue | null | undefined) => {
        if (!kv) return;
        count++;
        if (kvs.length < limit && !opts.countOnly && kv.modRevision >= minMod) kvs.push(kv);
      };
      if (rev === current) {
        if (opts.end === undefined) take(this.live.get(opts.start, { transaction: txn }));
        else
          for (const { value } of this.live.getRange({ start: opts.start, end: opts.end, transaction: txn } as never))
            take(value);
      } else {
        // History is ordered by key, then revision: keep the newest version at or below rev.
        const [start, end] =
          opts.end === undefined
            ? [
                [opts.start, 0],
                [opts.start, MAX_REVISION],
              ]
            : [[opts.start], [opts.end]];
        let key: string | undefined;
        let found: KeyValue | null = null;
        for (const {
          key: [k, r],
          value,
        } of this.history.getRange({ start, end, transaction: txn } as never) as Iterable<{
          key: [string, number];
          value: KeyValue | null;
        }>) {
          if (k !== key) {
            if (key !== undefined) take(found);
            key = k;
            found = null;
          }
          if (r <= rev) found = value;
        }
        if (key !== undefined) take(found);
      }
      return { kvs, more: !opts.countOnly && count > kvs.length, count, revision: current };
    } catch (err) {
      throw storageError(err);
    } finally {
      txn.done();
    }
  }

  async create(key: string, value: string, lease?: number): Promise<TxnResult> {
    return this.write((rev) => {
      const current = this.live.get(key);
      if (current) return { succeeded: false, revision: rev, current };
      return this.put(rev, key, value, lease, undefined);
    });
  }

  async update(key: string, value: string, expectedModRevision: number, lease?: number): Promise<TxnResult> {
    return this.write((rev) => {
      const current = this.live.get(key);
      if (!current || current.modRevision !== expectedModRevision)
        return { succeeded: false, revision: rev, current: current ?? null };
      return this.put(rev, key, value, lease, current);
    });
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    return this.write((rev) => {
      const current = this.live.get(key);
      if (!current || (expectedModRevision !== undefined && current.modRevision !== expectedModRevision)) {
        return { succeeded: false, revision: rev, current: current ?? null };
      }
      return { succeeded: true, revision: this.remove(rev, key, current), current };
    });
  }

  watch(opts: WatchOptions): KvWatch {
    return watchLog(
      {
        read: (from, limit) => [...this.log.getRange({ start: from, limit })].map((e) => e.value),
        compacted: () => this.meta.get('compacted') ?? 0,
        closed: () => this.closed,
        wake: () => this.wake,
      },
      opts,
    );
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.meta.get('revision')!;
  }
  /** Every write reaches every watch as progress. */
  async watchProgress(): Promise<WatchProgressMode> {
    return 'every-write';
  }

  /** The size of the database file in bytes. */
  async dbSizeBytes(): Promise<number> {
    this.assertOpen();
    return statSync(this.file).size;
  }

  async compact(revision: number): Promise<void> {
    // Nothing may throw inside a transaction callback (it would abort the writes batched with
    // it): a refusal is noted and thrown once the transaction is done.
    let refusal: KvError | undefined;
    await this.write((current) => {
      const compacted = this.meta.get('compacted') ?? 0;
      if (revision > current) refusal = new KvError('FutureRevision', 'mvcc: required revision is a future revision');
      else if (revision <= compacted)
        refusal = new KvError('Compacted', 'mvcc: required revision has been compacted', compacted);
      if (refusal) return { succeeded: false, revision: current, current: null };
      const touched = new Set<string>();
      for (const { key, value } of [...this.log.getRange({ start: compacted + 1, end: revision + 1 })]) {
        touched.add(value.kv.key);
        this.log.remove(key);
      }
      for (const k of touched) {
        const older = [...this.history.getRange({ start: [k, 0], end: [k, revision + 1] })];
        // The newest version at or below `revision` stays readable there; a deletion need not.
        const newest = older.pop();
        for (const e of older) this.history.remove(e.key);
        if (newest && newest.value === null) this.history.remove(newest.key);
      }
      this.meta.put('compacted', revision);
      return { succeeded: true, revision: current, current: null };
    }, false);
    if (refusal) throw refusal;
  }

  async grantLease(ttlSeconds: number): Promise<number> {
    const expiresAt = Date.now() + Math.max(1, ttlSeconds) * 1000;
    let id = 0;
    await this.write((rev) => {
      id = this.meta.get('nextLease') ?? 1;
      this.meta.put('nextLease', id + 1);
      this.leases.put(id, expiresAt);
      return { succeeded: true, revision: rev, current: null };
    }, false);
    this.schedule(id, expiresAt);
    return id;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.wake.dispatchEvent(new Event('write'));
    await this.root.close();
    this.release();
  }

  /**
   * Run `body` in one write transaction with the store revision at its start; resolve once the
   * transaction is on disk. With `notify`, watchers are woken afterwards.
   */
  private async write(body: (revision: number) => TxnResult, notify = true): Promise<TxnResult> {
    this.assertOpen();
    try {
      const result = await this.root.transaction(() => body(this.meta.get('revision')!));
      await this.root.flushed;
      if (notify && result.succeeded) this.wake.dispatchEvent(new Event('write'));
      return result;
    } catch (err) {
      throw storageError(err);
    }
  }

  /** Inside a write transaction: store a new version of `key` at the next revision. */
  private put(
    current: number,
    key: string,
    value: string,
    lease: number | undefined,
    prev: KeyValue | undefined,
  ): TxnResult {
    const revision = current + 1;
    const kv = nextKeyValue(key, value, revision, prev, lease && this.leases.get(lease) !== undefined ? lease : 0);
    this.live.put(key, kv);
    this.record(revision, { revision, type: 'put', kv, ...(prev ? { prevKv: prev } : {}) }, kv);
    return { succeeded: true, revision, current: kv };
  }

  /** Inside a write transaction: delete `key` at the next revision; returns that revision. */
  private remove(current: number, key: string, prev: KeyValue): number {
    const revision = current + 1;
    this.live.remove(key);
    const tombstone: KeyValue = { key, value: '', createRevision: 0, modRevision: revision, version: 0, lease: 0 };
    this.record(revision, { revision, type: 'delete', kv: tombstone, prevKv: prev }, null);
    return revision;
  }

  private record(revision: number, entry: LogEntry, kv: KeyValue | null): void {
    this.history.put([entry.kv.key, revision], kv);
    this.log.put(revision, entry);
    this.meta.put('revision', revision);
  }

  /** Expire lease `id` at `expiresAt`: delete every key attached to it, then the lease. */
  private schedule(id: number, expiresAt: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        if (this.closed) return;
        void this.write((rev) => {
          let revision = rev;
          for (const { key, value } of [...this.live.getRange()])
            if (value.lease === id) revision = this.remove(revision, key, value);
          this.leases.remove(id);
          return { succeeded: revision !== rev, revision, current: null };
        }).catch(() => undefined);
      },
      Math.max(0, expiresAt - Date.now()),
    );
    timer.unref();
    this.timers.set(id, timer);
  }

  private assertOpen(): void {
    if (this.closed) throw new KvError('Unavailable', 'store closed');
  }
}
