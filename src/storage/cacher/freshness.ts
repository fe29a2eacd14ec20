/**
 * Consistent reads from a watch cache (KEP-2340, upstream k8s.io/apiserver pkg/storage/cacher
 * Cacher.GetList with ConsistentListFromCache): a read without resourceVersion must see every
 * write storage acknowledged before it began. Storage's current revision R comes from a one-key
 * read (upstream GetCurrentResourceVersion), so the check costs the same however many objects
 * the resource holds. The cache answers once it has seen everything up to R:
 *  - at once when its watch is already there (nothing was written since its last event or
 *    progress notification);
 *  - else, when its store's watches learn of progress (see WatchProgressMode), after waiting
 *    for it: the memory and embedded stores report every write to every watch; etcd from
 *    3.4.31 / 3.5.13 is asked for a progress notification on the cache's own watch stream
 *    (upstream's progress requester), again every 100 ms while the read waits.
 * Older etcd answers progress requests ahead of events still to be delivered (etcd #15220), so
 * there the cache proves the request's own key range (a namespace's, for a namespaced list)
 * unchanged since its revision C: at R no key of the range has a ModRevision above C (a
 * keys-only read filtered by min_mod_revision) and the range holds as many keys as the
 * cache does. Both reads walk that range only, never the whole resource, and carry no values;
 * the cache then answers for that range at R. Otherwise (the range changed and the watch has
 * not caught up, no progress within `timeoutMs`, upstream's blockTimeout of 3 s, the cache
 * stopped serving) it resolves to null and the caller reads storage over the same range, as
 * upstream's fallback does. A compaction of storage past R before the proof's reads also
 * resolves to null: the fallback reads storage's latest state, which no compaction expires.
 */
import { StorageError } from '../storage-error.js';
import { KvError, type KvStore } from '../kv/types.js';
import { CacheNotReady, type WatchCache } from './watch-cache.js';

export interface FreshnessCheck {
  readonly kv: KvStore;
  readonly cache: WatchCache;
  /** Ask the cache's storage watch for a progress notification (rate-limited by the reflector). */
  readonly requestProgress: () => void;
  /** Milliseconds to wait for the cache before giving up (default 3,000). */
  readonly timeoutMs?: number;
  /** The read's key range in storage, and how many keys of it the cache holds now. */
  readonly range: KeyRange;
}

/** Full storage keys from `start` (inclusive) to `end` (exclusive). */
export interface KeyRange {
  readonly start: string;
  readonly end: string;
  /** Keys of the range in the cache's current state. */
  cachedCount(): number;
  /** The range is the cache's whole resource: once proven unchanged, the cache is current. */
  readonly whole?: boolean;
}

/** How often a waiting read asks again for progress, in milliseconds. */
const RECHECK_MS = 100;

/**
 * Run `read(revision)` synchronously on the cache once it is confirmed current (see the file
 * comment); `revision` is the resourceVersion the read answers at. Resolves to null when the
 * cache cannot be confirmed current in time or stopped serving; storage failures throw
 * (KvError).
 */
export async function readConsistent<T>(
  check: FreshnessCheck,
  read: (revision: number) => T,
): Promise<{ value: T } | null> {
  const { kv, cache } = check;
  const target = await kv.currentRevision();
  if (cache.revision >= target) return { value: read(cache.revision) };
  const mode = await kv.watchProgress();
  if (mode === 'none') {
    // Synchronously after the proof, so the cache's state is the one proven.
    if (await rangeUnchanged(check, target).catch(unprovenIfCompacted)) {
      // Proven for the whole resource, no event can still come at or below `target`: say so,
      // as a progress notification would, so the next reads need no proof until storage moves.
      if (check.range.whole) cache.advance(target);
      return { value: read(target) };
    }
    return cache.revision >= target ? { value: read(cache.revision) } : null;
  }
  const deadline = Date.now() + (check.timeoutMs ?? 3000);
  for (;;) {
    if (mode === 'on-request') check.requestProgress();
    const left = deadline - Date.now();
    if (left <= 0) return null;
    try {
      await cache.waitFor(target, Math.min(RECHECK_MS, left));
      return { value: read(cache.revision) };
    } catch (err) {
      if (err instanceof CacheNotReady) return null;
      if (!(err instanceof StorageError) || err.code !== 'TooLargeResourceVersion') throw err;
    }
  }
}

/** A proof read at a revision compacted meanwhile proves nothing; other failures stand. */
function unprovenIfCompacted(err: unknown): false {
  if (err instanceof KvError && err.code === 'Compacted') return false;
  throw err;
}

/**
 * Whether storage at `target` holds, in the read's range, exactly the keys and values the cache
 * holds now (at its revision C < target): no key there modified after C, and as many keys.
 * False when the cache moved while storage answered (the caller checks it again).
 */
async function rangeUnchanged(check: FreshnessCheck, target: number): Promise<boolean> {
  const { kv, cache, range } = check;
  const seen = cache.revision;
  const [counted, changed] = await Promise.all([
    kv.range({ start: range.start, end: range.end, revision: target, countOnly: true }),
    kv.range({ start: range.start, end: range.end, revision: target, keysOnly: true, minModRevision: seen + 1 }),
  ]);
  return cache.revision === seen && changed.kvs.length === 0 && counted.count === range.cachedCount();
}
