/**
 * The narrow key-value contract under object storage. Two backends implement it: `etcd`
 * (production, the etcd3 client) and `memory` (in-process MVCC, the embedded default).
 *
 * Only the transaction shapes the upstream API server uses are expressed here, so that
 * kine-backed etcd endpoints work too (upstream: k8s.io/apiserver pkg/storage/etcd3/store.go):
 *  - create  = Txn(If ModRevision(key) == 0, Then Put, Else Get)
 *  - update  = Txn(If ModRevision(key) == N, Then Put, Else Get)
 *  - delete  = Txn(If ModRevision(key) == N, Then Delete, Else Get), or unconditional Get+Delete
 *  - range   = Get(start, end) at an optional revision with an optional limit
 *  - watch   = Watch(prefix, fromRevision) with previous key-values
 *
 * Keys and values are strings (values are JSON documents). Revisions are etcd revisions:
 * positive integers, global to the store, strictly increasing with every write.
 */

/** One stored key at one revision. */
export interface KeyValue {
  readonly key: string;
  readonly value: string;
  /** Revision of the write that created this key (since its last deletion). */
  readonly createRevision: number;
  /** Revision of the last write to this key; this becomes the object's resourceVersion. */
  readonly modRevision: number;
  /** Number of writes to this key since creation (1 after create). */
  readonly version: number;
  /** Lease id the key is attached to, or 0. */
  readonly lease: number;
}

/** Result of a range read. */
export interface RangeResult {
  readonly kvs: readonly KeyValue[];
  /** True when `limit` cut the result and more keys exist in the range. */
  readonly more: boolean;
  /** Number of keys in the whole range at that revision (ignores `limit`). */
  readonly count: number;
  /** The store revision the read was served at (the header revision). */
  readonly revision: number;
}

export interface RangeOptions {
  /** Inclusive start key. */
  readonly start: string;
  /** Exclusive end key; `undefined` reads only `start`. Use {@link prefixEnd} for prefixes. */
  readonly end?: string;
  /** Read at this revision (0 or absent = latest). Throws KvError 'Compacted' / 'FutureRevision'. */
  readonly revision?: number;
  /** Maximum keys to return; 0 or absent = unlimited. */
  readonly limit?: number;
  /** Return no key-values, only `count` (etcd's count_only). */
  readonly countOnly?: boolean;
  /** Values may be left empty (etcd's keys_only). */
  readonly keysOnly?: boolean;
  /**
   * Return only keys whose ModRevision is at least this (etcd's min_mod_revision). As in etcd,
   * it filters `kvs` only (after `limit`, so use it without one); `count` stays the range's.
   */
  readonly minModRevision?: number;
}

/** Result of a conditional write. On failure `current` is the key as it stands (null = absent). */
export interface TxnResult {
  readonly succeeded: boolean;
  /** Header revision of the transaction: the new ModRevision on success. */
  readonly revision: number;
  /** On failure: the current key-value (or null if absent). On a successful delete: the deleted kv. */
  readonly current: KeyValue | null;
}

export type KvEventType = 'put' | 'delete';

/** One change seen by a watch. For `delete`, `kv.modRevision` is the delete's revision. */
export interface KvEvent {
  readonly type: KvEventType;
  readonly kv: KeyValue;
  /** The key-value before this change, when it existed and history still has it. */
  readonly prevKv?: KeyValue;
}

export interface WatchOptions {
  /** Watch every key with this prefix (or exactly this key when `exact`). */
  readonly prefix: string;
  readonly exact?: boolean;
  /** First revision to deliver (inclusive). A compacted revision fails with KvError 'Compacted'. */
  readonly fromRevision: number;
  /**
   * Deliver `prevKv` with each event (default true). A consumer that keeps the previous state
   * itself (a watch cache) turns it off, halving what etcd sends.
   */
  readonly prevKv?: boolean;
  /** Aborting ends the iteration and frees the underlying watch at once. */
  readonly signal: AbortSignal;
}

/**
 * One watch response: events in revision order (possibly none), and the store revision the
 * watcher has now seen everything up to (etcd's header revision; progress notifications carry
 * no events). Used for bookmarks.
 */
export interface KvWatchResponse {
  readonly events: readonly KvEvent[];
  readonly revision: number;
}

/**
 * A watch stream of responses, each event delivered once. The iterator throws a
 * {@link KvError} ('Compacted' when `fromRevision` is older than the compacted revision,
 * 'Unavailable' when the backend is lost); it returns when the signal aborts. "Lost" is bounded
 * in time: etcd's watch ends within about 10 s of no member answering, while losing one member
 * of several is not a loss (the watch carries on from another member without a gap). A
 * consumer resumes by watching again from the revision after the last event it saw.
 */
export type KvWatch = AsyncIterable<KvWatchResponse> & {
  /**
   * Ask storage for a progress notification on this watch: a response without events whose
   * revision is storage's current one, once every event up to it was delivered (etcd's
   * progress request; stores whose watches see progress on every write have none).
   */
  readonly requestProgress?: () => void;
};

/**
 * How a watch learns that nothing under its prefix changed up to storage's current revision,
 * which a consistent read from a watch cache needs (upstream RequestWatchProgress):
 *  - 'every-write': every write reaches every watch as progress (the memory and embedded stores);
 *  - 'on-request': a progress request on the watch's stream (etcd 3.4.31+ and 3.5.13+, which
 *    answer it only once the stream's watchers are synced);
 *  - 'none': older etcd, whose progress answers may overtake events still to be delivered
 *    (etcd #15220): consistent reads go to storage, as upstream's fallback.
 */
export type WatchProgressMode = 'every-write' | 'on-request' | 'none';

/** 'TooLarge': the request exceeds the backend's size limit (etcd's 1.5 MiB by default). */
export type KvErrorCode = 'Compacted' | 'FutureRevision' | 'Unavailable' | 'TooLarge' | 'Internal';

/** The only error the key-value layer throws. */
export class KvError extends Error {
  constructor(
    readonly code: KvErrorCode,
    message: string,
    /** For 'Compacted': the store's compacted revision. */
    readonly compactRevision?: number,
  ) {
    super(message);
    this.name = 'KvError';
  }
}

/** The key-value store contract. Every method may throw {@link KvError}. */
export interface KvStore {
  /** Backend name for logs and metrics: 'etcd' | 'memory'. */
  readonly backend: string;
  range(options: RangeOptions): Promise<RangeResult>;
  /** Put `value` at `key` only if the key does not exist (ModRevision == 0). */
  create(key: string, value: string, lease?: number): Promise<TxnResult>;
  /** Put `value` at `key` only if its ModRevision equals `expectedModRevision`. */
  update(key: string, value: string, expectedModRevision: number, lease?: number): Promise<TxnResult>;
  /**
   * Delete `key`; with `expectedModRevision` only if its ModRevision equals it. On success
   * `current` is the deleted key-value; deleting an absent key fails with `current` null.
   */
  delete(key: string, expectedModRevision?: number): Promise<TxnResult>;
  /** Stream changes under a prefix from a revision. */
  watch(options: WatchOptions): KvWatch;
  /** Current store revision (header revision of a one-key read: its cost does not grow with the data). */
  currentRevision(): Promise<number>;
  /** How this store's watches learn of progress (see {@link WatchProgressMode}); never throws. */
  watchProgress(): Promise<WatchProgressMode>;
  /** Compact history up to and including `revision`; older revisions then read as 'Compacted'. */
  compact(revision: number): Promise<void>;
  /** Grant a lease of `ttlSeconds`; keys attached to it are deleted when it expires. */
  grantLease(ttlSeconds: number): Promise<number>;
  /**
   * Bytes the backend's database takes (etcd's dbSize from the maintenance status; the
   * embedded store's file size; the memory store's estimate). Feeds apiserver_storage_size_bytes.
   */
  dbSizeBytes?(): Promise<number>;
  /** Release connections and end all watches. */
  close(): Promise<void>;
}

/**
 * The exclusive end of the range of keys that start with `prefix` (etcd's GetPrefixRangeEnd):
 * the prefix with its last byte incremented. Keys here are ASCII, so UTF-16 code units suffice.
 */
export function prefixEnd(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}

/**
 * The next version of `key` written at `revision` over `prev` (undefined when the key is new):
 * createRevision kept, version counted up from 1, `lease` (0 for none) attached, as etcd's MVCC
 * store does for a put.
 */
export function nextKeyValue(
  key: string,
  value: string,
  revision: number,
  prev: KeyValue | undefined,
  lease: number,
): KeyValue {
  return {
    key,
    value,
    createRevision: prev ? prev.createRevision : revision,
    modRevision: revision,
    version: prev ? prev.version + 1 : 1,
    lease,
  };
}
