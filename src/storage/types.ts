/**
 * The object-storage contract the registry works against (upstream k8s.io/apiserver
 * pkg/storage/interfaces.go storage.Interface): create, get, list, guaranteed update, delete and
 * watch of API objects under keys relative to the storage prefix. ObjectStore implements it
 * directly on the key-value store; a watch cache in front of it implements the same contract.
 */
import type { ApiObject } from '../api/object.js';
import type { KvStore } from './kv/types.js';

/** Conditions a delete must meet (DeleteOptions.preconditions). */
export interface Preconditions {
  readonly uid?: string | null;
  readonly resourceVersion?: string | null;
}

/** Options of a get. */
export interface GetOptions {
  /**
   * Raw `resourceVersion` query value: '' = the latest (a consistent read), '0' = any version
   * (a cache may answer), N = not older than N (waits up to 3 s for storage to reach it).
   */
  readonly resourceVersion?: string;
}

export interface ListOptions {
  /** Maximum items per chunk; 0/undefined = all. */
  readonly limit?: number;
  /** A continue token from a previous chunk. */
  readonly continueToken?: string;
  /** Raw `resourceVersion` query value: '' / '0' = latest; N with limit = exact read at N. */
  readonly resourceVersion?: string;
  /**
   * Upstream's resourceVersionMatch: Exact reads at exactly `resourceVersion` (with or without
   * a limit); NotOlderThan reads the latest once the store has reached it; '' keeps the legacy
   * rule above.
   */
  readonly resourceVersionMatch?: '' | 'Exact' | 'NotOlderThan';
  /** Keep only objects this returns true for. */
  readonly predicate?: (obj: ApiObject) => boolean;
  /** True when a label or field selector is in force (remainingItemCount is then omitted). */
  readonly hasSelector?: boolean;
  /**
   * The `field=value` requirements of the field selector (`spec.nodeName` -> `node-1`), which a
   * watch cache may answer from an index; `predicate` still decides.
   */
  readonly indexValues?: Readonly<Record<string, string>>;
}

export interface ListResult {
  readonly items: ApiObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/**
 * Returns the object to store given the current one (null when absent and allowed), or throws
 * (an ApiError aborts the update unchanged).
 */
export type TryUpdate = (current: ApiObject | null) => Promise<ApiObject> | ApiObject;

/**
 * Options of a write. `dryRun` runs every check a real write runs (existence, preconditions,
 * the update function) against the stored state and answers what would be stored, writing
 * nothing (upstream k8s.io/apiserver pkg/registry/generic/registry/dryrun.go DryRunnableStorage).
 */
export interface StorageWriteOptions {
  readonly dryRun?: boolean;
}

export interface CreateOptions extends StorageWriteOptions {
  /** Attach the key to a lease of this many seconds (deleted when it expires). */
  readonly leaseTtlSeconds?: number;
}

export interface UpdateOptions extends StorageWriteOptions {
  /** Call `tryUpdate` with null when the key is absent, and create it. */
  readonly allowCreate?: boolean;
  /** Checked against the current object before every attempt (StorageError 'Conflict'). */
  readonly preconditions?: Preconditions;
  /**
   * The object as a watch cache last saw it (with its resourceVersion; the key attached to no
   * lease), tried first instead of reading storage, as upstream's `cachedExistingObject`: when
   * it was stale the write's compare-and-swap fails (or the update or a precondition fails, or
   * the result equals it) and storage is read then. Never changed; not used by a dry run.
   */
  readonly cached?: ApiObject;
}

export interface DeleteOptions extends StorageWriteOptions {
  readonly preconditions?: Preconditions;
  /** Checked against the current object before the delete; throw to refuse it. */
  readonly validate?: (obj: ApiObject) => void;
}

/**
 * Object storage. Keys are relative to the storage prefix (`pods/default/web`); every method
 * throws StorageError (NotFound, KeyExists, Conflict, Expired, Unreachable, InvalidArgument,
 * Timeout) as upstream's storage errors.
 */
export interface ObjectStorage {
  /** The key-value store underneath (for leases and coordination records). */
  readonly kv: KvStore;
  /** The full storage key of a relative key (`/registry/pods/default/web`). */
  fullKey(key: string): string;
  /** Create `obj` at `key`; 'KeyExists' when present. Returns the stored object with its resourceVersion. */
  create(key: string, obj: ApiObject, opts?: CreateOptions): Promise<ApiObject>;
  /** Read `key` as `opts.resourceVersion` asks; 'KeyNotFound' when absent, 'TooLargeResourceVersion' after waiting 3 s. */
  get(key: string, opts?: GetOptions): Promise<ApiObject>;
  /** List under `keyPrefix` (ending in '/'), in chunks with continue tokens, at one revision. */
  list(keyPrefix: string, opts?: ListOptions): Promise<ListResult>;
  /**
   * Read, apply `tryUpdate`, compare-and-swap; retried on a concurrent write. Without
   * `allowCreate`, `tryUpdate` only ever sees a stored object ('KeyNotFound' otherwise).
   */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<ApiObject>;
  /** Delete `key` after its preconditions and `validate`; returns the deleted object. */
  delete(key: string, opts?: DeleteOptions): Promise<ApiObject>;
  /** Events under `key` (one object) or a prefix (ending in '/'). */
  watch(key: string, opts: Omit<ObjectWatchOptions, 'fullKey'>): AsyncIterable<WatchEvent>;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * One object-level watch event. `object.metadata.resourceVersion` is the event's revision.
 * Storage's events carry ApiObjects; a store's carry its kind's type `T`.
 */
export interface WatchEvent<T extends ApiObject = ApiObject> {
  readonly type: WatchEventType;
  readonly object: T;
  /**
   * A MODIFIED event's object before the change, where the source knows it (the watch cache,
   * etcd's prevKv): what a consumer selecting on its own needs to tell selector transitions
   * (storage/converting-storage.ts). Never encoded.
   */
  readonly prevObject?: T;
}

/**
 * A watch's iterator. `poll`, where a source has it, returns the next event only when it is
 * already waiting (undefined otherwise), so a consumer that fell behind can write what piled
 * up at once instead of one event per turn.
 */
export interface WatchIterator<T extends ApiObject = ApiObject> extends AsyncIterator<WatchEvent<T>> {
  poll?(): WatchEvent<T> | undefined;
  /**
   * Push delivery, where a source has it: when nothing is waiting and the watch goes on, keep
   * `wake` and return true; `wake` is then called once, synchronously from the source's
   * dispatch, when an event can be polled or the watch ended. Returns false when the consumer
   * should call `next()` instead (an event is waiting, the watch ended, or the source cannot
   * push), so a change reaching thousands of watchers costs no promise per watcher.
   */
  whenReady?(wake: () => void): boolean;
}

export interface ObjectWatchOptions {
  /** Full etcd key of the object, or of the prefix when `recursive`. */
  readonly fullKey: string;
  readonly recursive: boolean;
  /**
   * Without initial events: deliver only changes after this revision (0 = after the current
   * one). With them: the sync is read at the latest revision once the store has reached it.
   */
  readonly resourceVersion: number;
  /** Sync the current state as ADDED first (default: when `resourceVersion` is 0, the legacy rule). */
  readonly sendInitialEvents?: boolean;
  /** After the initial events, yield the BOOKMARK annotated `k8s.io/initial-events-end` (object-watch.ts INITIAL_EVENTS_END_ANNOTATION). */
  readonly initialEventsEndBookmark?: boolean;
  readonly predicate?: (obj: ApiObject) => boolean;
  /** As ListOptions.indexValues: the selector's `field=value` requirements, for cache indexes. */
  readonly indexValues?: Readonly<Record<string, string>>;
  /**
   * The client gave no resourceVersion: initial events must be at least as new as storage at
   * the time of the request (a cache confirms its freshness first).
   */
  readonly consistent?: boolean;
  /**
   * Ends the watch when it aborts. Optional: `return()` on the iterator ends a watch as
   * promptly (also while a `next()` is pending), without an AbortSignal per watch.
   */
  readonly signal?: AbortSignal;
  /**
   * Called once every event up to `revision` has been yielded (and so consumed): the point a
   * bookmark may claim.
   */
  readonly onProgress?: (revision: number) => void;
}
