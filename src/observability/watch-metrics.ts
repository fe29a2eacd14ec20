/**
 * Watch and watch-cache metrics with upstream's names and labels (k8s.io/apiserver
 * pkg/storage/cacher/metrics/metrics.go, pkg/endpoints/metrics/metrics.go):
 * apiserver_watch_cache_{events_received_total, events_dispatched_total, resource_version,
 * capacity, initializations_total, consistent_read_total}, apiserver_terminated_watchers_total
 * (per resource), and apiserver_watch_events_total / apiserver_watch_events_sizes (per group,
 * version and kind, counted where events are written to clients).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { TalliedCounter, TalliedHistogram } from './tallied.js';
import type { CacherObserver } from '../storage/cacher/observer.js';

export interface WatchMetrics {
  /** What the watch caches report to. */
  readonly observer: CacherObserver;
  /**
   * The recorder of one watch's events: call it with each event's size in bytes as it is
   * written to the client (label values bound once, not hashed per event).
   */
  readonly eventRecorder: (labels: { group: string; version: string; kind: string }) => (bytes: number) => void;
}

/** One cache's gauge values (read at scrape time) and its counters' incrementers. */
interface CacheMetrics {
  /** Unset until the cache reports one (then exposed). */
  revision: number | undefined;
  capacity: number | undefined;
  readonly received: (value?: number) => void;
  readonly dispatched: (value?: number) => void;
}

/** Register the watch metrics on `registry`. */
export function createWatchMetrics(registry: Registry): WatchMetrics {
  const registers = [registry];
  const resource = ['resource'];
  // Changed on every event: counted without hashing labels (tallied.ts), and the gauges read
  // from plain fields when the registry is scraped.
  const received = new TalliedCounter({
    name: 'apiserver_watch_cache_events_received_total',
    help: 'Counter of events received in watch cache broken by resource type.',
    labelNames: resource,
    registers,
  });
  const dispatched = new TalliedCounter({
    name: 'apiserver_watch_cache_events_dispatched_total',
    help: 'Counter of events dispatched in watch cache broken by resource type.',
    labelNames: resource,
    registers,
  });
  const caches = new Map<string, CacheMetrics>();
  const metricsOf = (r: string): CacheMetrics => {
    let g = caches.get(r);
    if (!g) {
      g = {
        revision: undefined,
        capacity: undefined,
        received: received.adder({ resource: r }),
        dispatched: dispatched.adder({ resource: r }),
      };
      caches.set(r, g);
    }
    return g;
  };
  new Gauge({
    name: 'apiserver_watch_cache_resource_version',
    help: 'Current resource version of watch cache broken by resource type.',
    labelNames: resource,
    registers,
    collect() {
      for (const [r, g] of caches) if (g.revision !== undefined) this.set({ resource: r }, g.revision);
    },
  });
  new Gauge({
    name: 'apiserver_watch_cache_capacity',
    help: 'Total capacity of watch cache broken by resource type.',
    labelNames: resource,
    registers,
    collect() {
      for (const [r, g] of caches) if (g.capacity !== undefined) this.set({ resource: r }, g.capacity);
    },
  });
  const initializations = new Counter({
    name: 'apiserver_watch_cache_initializations_total',
    help: 'Counter of watch cache initializations broken by resource type.',
    labelNames: resource,
    registers,
  });
  const consistent = new Counter({
    name: 'apiserver_watch_cache_consistent_read_total',
    help: 'Counter for consistent reads from cache.',
    labelNames: ['resource', 'success', 'fallback'],
    registers,
  });
  const terminated = new Counter({
    name: 'apiserver_terminated_watchers_total',
    help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
    labelNames: resource,
    registers,
  });
  // Observed once per event per watcher: tallied without hashing labels (see tallied.ts).
  const sizes = new TalliedHistogram({
    name: 'apiserver_watch_events_sizes',
    help: 'Watch event size distribution in bytes',
    labelNames: ['group', 'version', 'kind'],
    buckets: [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072],
    counter: { name: 'apiserver_watch_events_total', help: 'Number of events sent in watch clients' },
    registers,
  });
  return {
    observer: {
      eventReceived(r, cache) {
        const g = metricsOf(r);
        g.received();
        g.capacity = Math.max(100, cache.buffered);
      },
      eventsDispatched: (r, count) => metricsOf(r).dispatched(count),
      resourceVersion: (r, revision) => void (metricsOf(r).revision = revision),
      initialized(r, cache) {
        initializations.inc({ resource: r });
        const g = metricsOf(r);
        g.revision = cache.revision;
        g.capacity = Math.max(100, cache.buffered);
      },
      consistentRead: (r, fromCache) => consistent.inc({ resource: r, success: 'true', fallback: String(!fromCache) }),
      watcherTerminated: (r) => terminated.inc({ resource: r }),
    },
    eventRecorder: (labels) => sizes.recorder(labels),
  };
}
