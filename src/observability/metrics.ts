/**
 * Prometheus metrics with upstream names, labels, help texts and buckets (k8s.io/apiserver
 * pkg/endpoints/metrics/metrics.go, pkg/storage/etcd3/metrics/metrics.go): request counts,
 * latencies (all and SLI), response sizes, long-running requests, terminations, registered
 * watchers, in-flight requests, stored objects and database size, etcd request latency, counts
 * and errors, plus Node's default process metrics. Each server has its own registry. Those
 * recorded on every request are tallied (tallied.ts) rather than hashed by prom-client.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { droppedLogLines } from './logger.js';
import { TalliedCounter, TalliedHistogram } from './tallied.js';
import { createWatchMetrics, type WatchMetrics } from './watch-metrics.js';

const REQUEST_LABELS = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
] as const;
/** The request labels without dry_run, as upstream's newer request metrics carry them. */
const SHARED_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

export interface Metrics {
  readonly registry: Registry;
  readonly requestTotal: TalliedCounter;
  readonly requestDuration: TalliedHistogram;
  readonly registeredWatchers: Gauge<string>;
  readonly storageObjects: Gauge<string>;
  readonly etcdRequestDuration: TalliedHistogram;
  readonly inflight: Gauge<string>;
  readonly longrunning: Gauge<string>;
  readonly responseSizes: TalliedHistogram;
  readonly requestSliDuration: TalliedHistogram;
  readonly requestTerminations: Counter<string>;
  readonly storageSizeBytes: Gauge<string>;
  readonly etcdRequests: TalliedCounter;
  readonly etcdRequestErrors: TalliedCounter;
  /** Watch-cache and watch-event metrics (watch-metrics.ts). */
  readonly watch: WatchMetrics;
}

/** upstream's request latency buckets (seconds). */
const LATENCY_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Not upstream's (klog counts nothing): the process's log lines lost to a failing stdout.
  new Counter({
    name: 'ck_apiserver_log_lines_dropped_total',
    help: 'Log lines dropped because standard output could not take them (disk full, reader closed or stalled).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(droppedLogLines());
    },
  });
  return {
    registry,
    watch: createWatchMetrics(registry),
    requestTotal: new TalliedCounter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...REQUEST_LABELS, 'code'],
      registers: [registry],
    }),
    requestDuration: new TalliedHistogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, group, version, resource, subresource, scope and component.',
      labelNames: [...REQUEST_LABELS],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    registeredWatchers: new Gauge({
      name: 'apiserver_registered_watchers',
      help: 'Number of currently registered watchers for a given resources',
      labelNames: ['group', 'version', 'kind'],
      registers: [registry],
    }),
    storageObjects: new Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      labelNames: ['resource'],
      registers: [registry],
    }),
    etcdRequestDuration: new TalliedHistogram({
      name: 'etcd_request_duration_seconds',
      help: 'Etcd request latency in seconds for each operation and object type.',
      labelNames: ['operation', 'type'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    inflight: new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers: [registry],
    }),
    longrunning: new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: [...SHARED_LABELS],
      registers: [registry],
    }),
    responseSizes: new TalliedHistogram({
      name: 'apiserver_response_sizes',
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      labelNames: [...SHARED_LABELS],
      buckets: [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10],
      registers: [registry],
    }),
    requestSliDuration: new TalliedHistogram({
      name: 'apiserver_request_sli_duration_seconds',
      help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      labelNames: [...SHARED_LABELS],
      buckets: [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
      registers: [registry],
    }),
    requestTerminations: new Counter({
      name: 'apiserver_request_terminations_total',
      help: 'Number of requests which apiserver terminated in self-defense.',
      labelNames: [...SHARED_LABELS, 'code'],
      registers: [registry],
    }),
    storageSizeBytes: new Gauge({
      name: 'apiserver_storage_size_bytes',
      help: 'Size of the storage database file physically allocated in bytes.',
      labelNames: ['storage_cluster_id'],
      registers: [registry],
    }),
    etcdRequests: new TalliedCounter({
      name: 'etcd_requests_total',
      help: 'Etcd request counts for each operation and object type.',
      labelNames: ['operation', 'type'],
      registers: [registry],
    }),
    etcdRequestErrors: new TalliedCounter({
      name: 'etcd_request_errors_total',
      help: 'Etcd failed request counts for each operation and object type.',
      labelNames: ['operation', 'type'],
      registers: [registry],
    }),
  };
}
