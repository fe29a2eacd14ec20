/**
 * Consistent reads from a watch cache (KEP-2340, upstream k8s.io/apiserver pkg/storage/cacher
 * Cacher.GetList with ConsistentListFromCache): a read without resourceVersion must see every
 * write storage acknowledged before it began. The cache may answer once it is known to be
 * current as of storage's revision R at the start of the read:
 *  - when its watch has delivered everything up to R (memory and embedded watches report
 *    progress on every write; etcd's on every event of the prefix), or
 *  - when storage shows that the resource did not change after the cache's revision C up to R:
 *    no key under the prefix has a ModRevision above C at R (a keys-only read filtered by
 *    min_mod_revision, so only changed keys travel), and the prefix holds as many keys at R as
 *    the cache holds. The cache's state is then the state at R, and its revision advances to R
 *    (no event of the resource can still arrive at or below it). (This stands in for upstream's
 *    etcd progress request, which the etcd3 client cannot send and which etcd before 3.4.31
 *    may answer ahead of the events it still has to deliver.)
 * Otherwise it waits for the watch, checking again every 50 ms, and gives up after `timeoutMs`
 * (upstream blockTimeout, 3 s): the caller then reads storage (upstream's fallback).
 */
import type { KvStore } from '../kv/types.js';
import { CacheNotReady, type WatchCache } from './watch-cache.js';

export interface FreshnessCheck {
  readonly kv: KvStore;
  readonly cache: WatchCache;
  /** Full key range of the whole resource. */
  readonly start: string;
  readonly end: string;
  readonly timeoutMs?: number;
}

/**
 * Run `read(revision)` synchronously on the cache once it is confirmed current (see the file
 * comment); `revision` is the resourceVersion the read answers at. Resolves to null when
 * freshness could not be confirmed in time or the cache stopped serving; storage failures
 * throw (KvError).
 */
export async function readConsistent<T>(
  check: FreshnessCheck,
  read: (revision: number) => T,
): Promise<{ value: T } | null> {
  const { kv, cache, start, end } = check;
  const deadline = Date.now() + (check.timeoutMs ?? 3000);
  // One read gives both storage's current revision and the resource's key count.
  const latest = await kv.range({ start, end, countOnly: true });
  const target = latest.revision;
  for (;;) {
    if (cache.revision >= target) return { value: read(cache.revision) };
    const seen = cache.revision;
    if (cache.size === latest.count) {
      const changed = await kv.range({ start, end, revision: target, keysOnly: true, minModRevision: seen + 1 });
      if (cache.revision >= target) return { value: read(cache.revision) };
      if (cache.revision === seen && changed.kvs.length === 0) {
        // The cache holds the state at `target`: say so, as a progress notification would, so
        // the reads after this one need no proof until storage moves on.
        cache.advance(target);
        return { value: read(target) };
      }
    }
    const left = deadline - Date.now();
    if (left <= 0) return null;
    try {
      await cache.waitFor(target, Math.min(50, left));
    } catch (err) {
      if (err instanceof CacheNotReady) return null;
    }
  }
}
