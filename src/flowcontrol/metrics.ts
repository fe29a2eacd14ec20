/**
 * API Priority and Fairness metrics with upstream's names, labels, help and buckets
 * (k8s.io/apiserver pkg/util/flowcontrol/metrics/metrics.go), on the server's registry. Those
 * touched by every request cost a few additions: counters and histograms are tallied
 * (observability/tallied.ts), and the per-flow gauges (requests waiting and executing, seats
 * in use) are plain numbers read when the registry is scraped.
 */
import { Gauge, type Registry } from 'prom-client';
import { labelKey, TalliedCounter, TalliedHistogram } from '../observability/tallied.js';

const PL_FS = ['priority_level', 'flow_schema'] as const;
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

/** One (priority level, FlowSchema) pair's labels. */
export type FlowLabels = { readonly priority_level: string; readonly flow_schema: string };

/** What the filter updates for one (level, schema) pair; fetched once per pair. */
export interface FlowMetrics {
  inQueue: number;
  executing: number;
  executingSeats: number;
  readonly dispatched: (value?: number) => void;
  readonly waitedExecuted: (seconds: number) => void;
  readonly waitedRejected: (seconds: number) => void;
  readonly executedRegular: (seconds: number) => void;
  readonly executedWatch: (seconds: number) => void;
  rejected(reason: string): void;
}

/** The flow-control metrics; see the file comment. */
export interface FlowControlMetrics {
  /** The recorders of one pair (the same object for the same labels). */
  flow(labels: FlowLabels): FlowMetrics;
  readonly nominalLimitSeats: Gauge<'priority_level'>;
  readonly lowerLimitSeats: Gauge<'priority_level'>;
  readonly upperLimitSeats: Gauge<'priority_level'>;
  readonly currentLimitSeats: Gauge<'priority_level'>;
}

/** Create and register the metrics on `registry`. */
export function createFlowControlMetrics(registry: Registry): FlowControlMetrics {
  const registers = [registry];
  const name = (n: string) => `apiserver_flowcontrol_${n}`;
  const level = (n: string, help: string) =>
    new Gauge({ name: name(n), help, labelNames: ['priority_level'] as const, registers });
  const flows = new Map<string, { labels: FlowLabels; metrics: FlowMetrics }>();
  /** A gauge whose samples are read from each flow's numbers at scrape time. */
  const flowGauge = (n: string, help: string, value: (m: FlowMetrics) => number) =>
    new Gauge({
      name: name(n),
      help,
      labelNames: PL_FS,
      registers,
      collect() {
        this.reset();
        for (const f of flows.values()) this.set(f.labels, value(f.metrics));
      },
    });
  flowGauge(
    'current_inqueue_requests',
    'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
    (m) => m.inQueue,
  );
  flowGauge(
    'current_executing_requests',
    'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
    (m) => m.executing,
  );
  flowGauge(
    'current_executing_seats',
    'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
    (m) => m.executingSeats,
  );
  const rejected = new TalliedCounter({
    name: name('rejected_requests_total'),
    help: 'Number of requests rejected by API Priority and Fairness subsystem',
    labelNames: [...PL_FS, 'reason'],
    registers,
  });
  const dispatched = new TalliedCounter({
    name: name('dispatched_requests_total'),
    help: 'Number of requests executed by API Priority and Fairness subsystem',
    labelNames: [...PL_FS],
    registers,
  });
  const waited = new TalliedHistogram({
    name: name('request_wait_duration_seconds'),
    help: 'Length of time a request spent waiting in its queue',
    labelNames: [...PL_FS, 'execute'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const executed = new TalliedHistogram({
    name: name('request_execution_seconds'),
    help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
    labelNames: [...PL_FS, 'type'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  return {
    flow(labels) {
      const key = labelKey(PL_FS, labels);
      let f = flows.get(key);
      if (!f) {
        const l = { ...labels };
        const metrics: FlowMetrics = {
          inQueue: 0,
          executing: 0,
          executingSeats: 0,
          dispatched: dispatched.adder(l),
          waitedExecuted: waited.recorder({ ...l, execute: 'true' }),
          waitedRejected: waited.recorder({ ...l, execute: 'false' }),
          executedRegular: executed.recorder({ ...l, type: 'regular' }),
          executedWatch: executed.recorder({ ...l, type: 'watch' }),
          rejected: (reason) => rejected.inc({ ...l, reason }),
        };
        flows.set(key, (f = { labels: l, metrics }));
      }
      return f.metrics;
    },
    nominalLimitSeats: level(
      'nominal_limit_seats',
      'Nominal number of execution seats configured for each priority level',
    ),
    lowerLimitSeats: level(
      'lower_limit_seats',
      'Configured lower bound on number of execution seats available to each priority level',
    ),
    upperLimitSeats: level(
      'upper_limit_seats',
      'Configured upper bound on number of execution seats available to each priority level',
    ),
    currentLimitSeats: level(
      'current_limit_seats',
      'current derived number of execution seats available to each priority level',
    ),
  };
}
