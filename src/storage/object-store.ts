/**
 * Object storage over the key-value contract: create-if-absent, get, chunked list at a
 * consistent revision, guaranteed (compare-and-swap, retried) update, delete with
 * preconditions, and watch. Follows upstream k8s.io/apiserver pkg/storage/etcd3/store.go.
 *
 * Keys given to this class are relative to the configured prefix (`pods/default/web`); the
 * stored key is `<prefix>/<key>` (`/registry/pods/default/web`).
 */
import { withOwn, type ApiObject } from '../api/object.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { decodeObject, encodeObject, storageErrorOf } from './codec.js';
import type { KeyValue, KvStore } from './kv/types.js';
import { prefixEnd } from './kv/types.js';
import { StorageError } from './storage-error.js';
import { waitForRevision } from './revision-wait.js';
import { watchObjects } from './object-watch.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  ObjectStorage,
  ObjectWatchOptions,
  Preconditions,
  TryUpdate,
  UpdateOptions,
  WatchEvent,
} from './types.js';

export type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  ObjectStorage,
  Preconditions,
  StorageWriteOptions,
  TryUpdate,
  UpdateOptions,
} from './types.js';

/** The object storage on the key-value store (etcd, embedded or memory); no cache in front. */
export class ObjectStore implements ObjectStorage {
  private readonly root: string;

  /** @param prefix the etcd prefix, e.g. `/registry` (joined as upstream's path.Join("/", prefix)). */
  constructor(
    readonly kv: KvStore,
    prefix: string,
  ) {
    this.root = ('/' + prefix).replace(/\/+/g, '/').replace(/\/$/, '');
  }

  /** The full etcd key for a relative key. */
  fullKey(key: string): string {
    return `${this.root}/${key}`;
  }

  /**
   * Create `obj` at `key`. Throws StorageError 'KeyExists' (with the current object) if present.
   * A dry run answers `obj` without a resourceVersion, as upstream's dry-run create does.
   */
  async create(key: string, obj: ApiObject, opts: CreateOptions = {}): Promise<ApiObject> {
    const full = this.fullKey(key);
    if (opts.dryRun) {
      const current = await this.getRaw(key);
      if (current) throw new StorageError('KeyExists', key, `key ${key} already exists`, decodeObject(current));
      return withoutVersion(obj);
    }
    try {
      const lease = opts.leaseTtlSeconds ? await this.kv.grantLease(opts.leaseTtlSeconds) : undefined;
      const res = await this.kv.create(full, encodeObject(obj), lease);
      if (!res.succeeded) {
        throw new StorageError(
          'KeyExists',
          key,
          `key ${key} already exists`,
          res.current ? decodeObject(res.current) : undefined,
        );
      }
      return withVersion(obj, res.revision);
    } catch (err) {
      throw storageErrorOf(err, key);
    }
  }

  /**
   * Read the object at `key` (latest). A resourceVersion N other than '0' waits (up to 3 s)
   * until the store has reached it. Throws StorageError 'KeyNotFound', 'InvalidArgument' or
   * 'TooLargeResourceVersion'.
   */
  async get(key: string, opts: GetOptions = {}): Promise<ApiObject> {
    const rv = opts.resourceVersion ?? '';
    const minRevision = rv === '0' ? 0 : parseResourceVersion(rv, key);
    if (minRevision > 0) await waitForRevision(this.kv, minRevision, key);
    const kv = await this.getRaw(key);
    if (!kv) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
    return decodeObject(kv);
  }

  /**
   * List objects under `keyPrefix` (relative, ending in '/'), optionally in chunks. Chunks after
   * the first read at the first chunk's revision, so together they form one snapshot.
   * Throws StorageError 'InvalidArgument' (bad token / rv), 'Expired' (compacted revision).
   */
  async list(keyPrefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const prefix = this.fullKey(keyPrefix);
    const end = prefixEnd(prefix);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const rvParam = opts.resourceVersion ?? '';
    let start = prefix;
    let revision = 0;
    let minRevision = 0;
    if (opts.continueToken) {
      if (rvParam !== '' && rvParam !== '0') {
        throw new StorageError(
          'InvalidArgument',
          keyPrefix,
          'specifying resource version is not allowed when using continue',
        );
      }
      const token = decodeContinue(opts.continueToken);
      start = prefix + token.start;
      revision = token.rv > 0 ? token.rv : 0;
    } else if (
      rvParam !== '' &&
      rvParam !== '0' &&
      opts.resourceVersionMatch !== 'NotOlderThan' &&
      (limit > 0 || opts.resourceVersionMatch === 'Exact')
    ) {
      // An exact read at N; a future N first waits like any other "not older than N".
      revision = parseResourceVersion(rvParam, keyPrefix);
      minRevision = revision;
    } else if (rvParam !== '') {
      minRevision = parseResourceVersion(rvParam, keyPrefix);
    }
    if (minRevision > 0) await waitForRevision(this.kv, minRevision, keyPrefix);

    const items: ApiObject[] = [];
    let more: boolean;
    let lastKey = '';
    let firstCount = -1;
    try {
      for (;;) {
        const res = await this.kv.range({ start, end, revision, limit });
        if (revision === 0) revision = res.revision;
        if (firstCount < 0) firstCount = res.count;
        for (const kv of res.kvs) {
          lastKey = kv.key;
          const obj = decodeObject(kv);
          if (!opts.predicate || opts.predicate(obj)) items.push(obj);
          if (limit && items.length === limit) break;
        }
        more = res.more || (limit > 0 && res.kvs.length > 0 && lastKey !== res.kvs[res.kvs.length - 1].key);
        if (!limit || items.length >= limit || !res.more || res.kvs.length === 0) break;
        start = lastKey + '\0';
      }
    } catch (err) {
      const e = storageErrorOf(err, keyPrefix);
      // A token's revision was minted by a server at or below the store's revision: a future
      // one was not, and cannot become valid by waiting.
      if (e.code === 'TooLargeResourceVersion' && opts.continueToken) {
        throw new StorageError(
          'InvalidArgument',
          keyPrefix,
          `continue key is not valid: resourceVersion ${revision} is in the future`,
        );
      }
      if (e.code === 'Expired' && opts.continueToken) {
        // Upstream 1.12+: 410 with a token that continues from the same key at the latest revision.
        throw new StorageError(
          'Expired',
          keyPrefix,
          'continue',
          undefined,
          encodeContinue(-1, start.slice(prefix.length)),
        );
      }
      throw e;
    }
    const result: { -readonly [K in keyof ListResult]: ListResult[K] } = { items, resourceVersion: String(revision) };
    if (limit && more) {
      result.continue = encodeContinue(revision, lastKey.slice(prefix.length) + '\0');
      if (!opts.hasSelector && !opts.continueToken) result.remainingItemCount = Math.max(0, firstCount - items.length);
    }
    return result;
  }

  /**
   * Read-modify-write with compare-and-swap, retried on conflict (upstream GuaranteedUpdate).
   * `tryUpdate` receives the current object (null only with `allowCreate`). A result that
   * encodes identically to the stored value is not written (no-op update keeps the RV). A dry
   * run answers the result at the current resourceVersion without writing it. With
   * `opts.cached` the first attempt works on that object instead of a read (upstream's
   * cachedExistingObject); what fails on it, or finds nothing to change, is done again on a read.
   * Throws StorageError 'KeyNotFound' when absent and creation is not allowed, 'Conflict' when
   * a precondition fails.
   */
  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<ApiObject> {
    const full = this.fullKey(key);
    // Upstream's cachedExistingObject (etcd3 store.go GuaranteedUpdate): start from the cached
    // object, and read storage only when it proves stale or the attempt on it fails.
    const cached = opts.cached && !opts.dryRun ? cachedState(full, opts.cached) : null;
    let current = cached ?? (await this.getRaw(key));
    let fresh = !cached;
    for (let attempt = 0; ; attempt++) {
      if (!current && !opts.allowCreate) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
      const existing = current ? decodeObject(current) : null;
      let next: ApiObject;
      try {
        if (existing) checkPreconditions(key, existing, opts.preconditions);
        next = await tryUpdate(existing);
      } catch (err) {
        if (fresh) throw err;
        // Perhaps it failed on stale data: read storage, and answer the same failure when the
        // object had not changed after all.
        const staleRevision = current?.modRevision;
        current = await this.getRaw(key);
        fresh = true;
        if (current?.modRevision === staleRevision) throw err;
        continue;
      }
      const data = encodeObject(next);
      if (current && data === current.value) {
        // No change to write: known only against what storage holds now.
        if (fresh) return existing as ApiObject;
        current = await this.getRaw(key);
        fresh = true;
        continue;
      }
      if (opts.dryRun) return current ? withVersion(next, current.modRevision) : withoutVersion(next);
      try {
        const res = current
          ? await this.kv.update(full, data, current.modRevision, current.lease || undefined)
          : await this.kv.create(full, data);
        if (res.succeeded) return withVersion(next, res.revision);
        current = res.current;
        fresh = true;
      } catch (err) {
        throw storageErrorOf(err, key);
      }
      if (attempt > 100) throw new StorageError('Internal', key, `too many update conflicts on ${key}`);
    }
  }

  /**
   * Delete the object at `key` after checking the preconditions and `validate` against the
   * current object; retried on conflict. Returns the deleted object at its last resourceVersion
   * (a dry run returns it without deleting). Throws StorageError 'KeyNotFound' or 'Conflict'
   * (precondition failed).
   */
  async delete(key: string, opts: DeleteOptions = {}): Promise<ApiObject> {
    const full = this.fullKey(key);
    let current = await this.getRaw(key);
    for (;;) {
      if (!current) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
      const obj = decodeObject(current);
      checkPreconditions(key, obj, opts.preconditions);
      opts.validate?.(obj);
      if (opts.dryRun) return obj;
      try {
        const res = await this.kv.delete(full, current.modRevision);
        if (res.succeeded) return obj;
        current = res.current;
      } catch (err) {
        throw storageErrorOf(err, key);
      }
    }
  }

  /** Watch one key or every key under a prefix; see {@link watchObjects}. */
  watch(key: string, opts: Omit<ObjectWatchOptions, 'fullKey'>): AsyncIterable<WatchEvent> {
    return watchObjects(this.kv, { ...opts, fullKey: this.fullKey(key) });
  }

  private async getRaw(key: string): Promise<KeyValue | null> {
    try {
      const res = await this.kv.range({ start: this.fullKey(key) });
      return res.kvs[0] ?? null;
    } catch (err) {
      throw storageErrorOf(err, key);
    }
  }
}

/** The largest resourceVersion upstream parses (strconv.ParseUint(rv, 10, 64)). */
const MAX_RESOURCE_VERSION = 18446744073709551615n;

/**
 * Parse a resourceVersion query value: a decimal uint64 as upstream's ParseResourceVersion
 * (k8s.io/apiserver pkg/storage/etcd3 APIObjectVersioner). Throws StorageError
 * 'InvalidArgument' for anything else, including values beyond uint64.
 */
export function parseResourceVersion(rv: string, key = ''): number {
  if (rv === '') return 0;
  if (!/^\d{1,20}$/.test(rv) || BigInt(rv) > MAX_RESOURCE_VERSION)
    throw new StorageError('InvalidArgument', key, `invalid resource version: ${rv}`);
  return Number(rv);
}

function checkPreconditions(key: string, obj: ApiObject, pre?: Preconditions): void {
  if (!pre) return;
  if (pre.uid && pre.uid !== obj.metadata.uid) {
    throw new StorageError(
      'Conflict',
      key,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
    );
  }
  if (pre.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw new StorageError(
      'Conflict',
      key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
    );
  }
}

/**
 * The stored state a cached object stands for: its encoding at its resourceVersion, attached to
 * no lease (a watch cache hands over only such objects); null when it has no usable version.
 */
function cachedState(fullKey: string, obj: ApiObject): KeyValue | null {
  const revision = Number(obj.metadata?.resourceVersion);
  if (!Number.isSafeInteger(revision) || revision <= 0) return null;
  return { key: fullKey, value: encodeObject(obj), createRevision: 0, modRevision: revision, version: 0, lease: 0 };
}

function withVersion(obj: ApiObject, revision: number): ApiObject {
  return withOwn(obj, 'metadata', withOwn(obj.metadata, 'resourceVersion', String(revision)));
}

function withoutVersion(obj: ApiObject): ApiObject {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return withOwn(obj, 'metadata', meta);
}
