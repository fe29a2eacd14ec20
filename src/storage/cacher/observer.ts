/**
 * What a watch cache reports, for upstream's metrics (k8s.io/apiserver pkg/storage/cacher/metrics):
 * apiserver_watch_cache_events_received_total, _events_dispatched_total, _resource_version,
 * _capacity, _initializations_total, _consistent_read_total and
 * apiserver_terminated_watchers_total. `resource` is the resource name (`pods`,
 * `securitycontextconstraints.security.ck.io`). The storage layer knows nothing of Prometheus.
 */
import type { WatchCache } from './watch-cache.js';

export interface CacherObserver {
  /** The cache applied one change (`cache.buffered` is its buffer's fill). */
  eventReceived(resource: string, cache: WatchCache): void;
  /** `count` watch events were queued to watchers for one change. */
  eventsDispatched(resource: string, count: number): void;
  /** The cache has seen everything up to `revision`. */
  resourceVersion(resource: string, revision: number): void;
  /** The cache (re)listed and serves. */
  initialized(resource: string, cache: WatchCache): void;
  /** A list without resourceVersion was answered from the cache (true) or fell back to storage. */
  consistentRead(resource: string, fromCache: boolean): void;
  /** A watcher fell behind and was terminated. */
  watcherTerminated(resource: string): void;
}
