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
 * Otherwise (older etcd, whose progress answers may overtake undelivered events; no progress
 * within `timeoutMs`, upstream's blockTimeout of 3 s; the cache stopped serving) it resolves to
 * null and the caller reads storage, which costs what the request's own key range holds (a
 * namespace's objects for a namespaced list), as upstream's fallback does.
 */
import { StorageError } from '../storage-error.js';
import type { KvStore } from '../kv/types.js';
import { CacheNotReady, type WatchCache } from './watch-cache.js';

export interface FreshnessCheck {
  readonly kv: KvStore;
  readonly cache: WatchCache;
  /** Ask the cache's storage watch for a progress notification (rate-limited by the reflector). */
  readonly requestProgress: () => void;
  /** Milliseconds to wait for the cache before giving up (default 3,000). */
  readonly timeoutMs?: number;
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
  if (mode === 'none') return null;
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
