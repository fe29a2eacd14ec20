/**
 * Storage gauges refreshed on scrape: `apiserver_storage_objects{resource}` (a count-only range
 * per stored resource, as upstream's storage object-count tracker does every minute) and
 * `apiserver_storage_size_bytes{storage_cluster_id}` (the backend's database size). A scrape
 * refreshes them when the last refresh is older than `maxAgeMs`, within `timeoutMs`; on a
 * storage failure the previous values stay (the scrape itself never fails).
 */
import type { Gauge } from 'prom-client';
import { prefixEnd, type KvStore } from '../storage/kv/types.js';
import type { StorageObserver } from '../storage/kv/instrumented.js';
import type { Metrics } from './metrics.js';

/** One stored resource: its metric label and its full key prefix (ending in '/'). */
export interface StoredResource {
  readonly resource: string;
  readonly keyPrefix: string;
}

/**
 * Attach refresh-on-scrape collectors to the storage gauges of `metrics`. `resources` lists each
 * resource once (resources sharing a key prefix are counted once under the first name).
 */
export function collectStorageMetrics(
  metrics: Metrics,
  kv: KvStore,
  resources: readonly StoredResource[],
  maxAgeMs = 5000,
  timeoutMs = 2000,
): void {
  let refreshedAt = 0;
  let running: Promise<void> | undefined;
  const unique = [...new Map(resources.map((r) => [r.keyPrefix, r])).values()];
  const refresh = async () => {
    const counts = unique.map(async (r) => {
      const result = await kv.range({ start: r.keyPrefix, end: prefixEnd(r.keyPrefix), limit: 1 });
      metrics.storageObjects.set({ resource: r.resource }, result.count);
    });
    const size = kv.dbSizeBytes
      ? kv.dbSizeBytes().then((bytes) => metrics.storageSizeBytes.set({ storage_cluster_id: kv.backend }, bytes))
      : Promise.resolve();
    await Promise.allSettled([...counts, size]);
    refreshedAt = Date.now();
  };
  const collect = async () => {
    if (Date.now() - refreshedAt < maxAgeMs) return;
    running ??= refresh().finally(() => (running = undefined));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  };
  setCollect(metrics.storageObjects, collect);
  setCollect(metrics.storageSizeBytes, collect);
}

/** prom-client calls a gauge's `collect` before each scrape; it may be async. */
function setCollect(gauge: Gauge<string>, collect: () => Promise<void>): void {
  (gauge as unknown as { collect: () => Promise<void> }).collect = collect;
}

/** The observer instrumentKvStore reports to: etcd_request_duration_seconds, _requests_total, _errors_total. */
export function storageObserver(metrics: Metrics): StorageObserver {
  /** The three recorders of each (operation, type), made on first use: a call then records without a label lookup. */
  const recorders = new Map<string, { duration: (s: number) => void; total: () => void; errors: () => void }>();
  return {
    observe(operation, type, seconds, failed) {
      const key = `${operation} ${type}`;
      let r = recorders.get(key);
      if (!r) {
        const labels = { operation, type };
        r = {
          duration: metrics.etcdRequestDuration.recorder(labels),
          total: metrics.etcdRequests.adder(labels),
          errors: metrics.etcdRequestErrors.adder(labels),
        };
        // Bounded: types are the resources of the table (and '' for calls of no resource).
        if (recorders.size >= 1000) recorders.clear();
        recorders.set(key, r);
      }
      r.duration(seconds);
      r.total();
      if (failed) r.errors();
    },
  };
}
