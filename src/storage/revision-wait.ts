/**
 * Waiting for the store to reach a resourceVersion, as upstream's watch cache waits for
 * freshness before answering a read "not older than N" (k8s.io/apiserver pkg/storage/cacher
 * watchCache.waitUntilFreshAndBlock, blockTimeout 3 s).
 */
import { storageErrorOf } from './codec.js';
import type { KvStore } from './kv/types.js';
import { StorageError } from './storage-error.js';

/**
 * Resolve once the store revision is at least `revision` (polled every 100 ms), or throw
 * StorageError 'TooLargeResourceVersion' ("N, current: M") after `timeoutMs` (default 3000);
 * storage failures throw as StorageError for `key`.
 */
export async function waitForRevision(kv: KvStore, revision: number, key: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let current: number;
    try {
      current = await kv.currentRevision();
    } catch (err) {
      throw storageErrorOf(err, key);
    }
    if (current >= revision) return;
    if (Date.now() >= deadline)
      throw new StorageError('TooLargeResourceVersion', key, `${revision}, current: ${current}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
