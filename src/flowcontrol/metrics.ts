/**
 * API Priority and Fairness metrics with upstream's names, labels, help and buckets
 * (k8s.io/apiserver pkg/util/flowcontrol/metrics/metrics.go), on the server's registry.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

const PL_FS = ['priority_level', 'flow_schema'] as const;
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

/** The flow-control metrics; see the file comment. */
export interface FlowControlMetrics {
  readonly rejected: Counter<'priority_level' | 'flow_schema' | 'reason'>;
  readonly dispatched: Counter<'priority_level' | 'flow_schema'>;
  readonly inQueue: Gauge<'priority_level' | 'flow_schema'>;
  readonly executing: Gauge<'priority_level' | 'flow_schema'>;
  readonly executingSeats: Gauge<'priority_level' | 'flow_schema'>;
  readonly waitDuration: Histogram<'priority_level' | 'flow_schema' | 'execute'>;
  readonly executionSeconds: Histogram<'priority_level' | 'flow_schema' | 'type'>;
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
  return {
    rejected: new Counter({
      name: name('rejected_requests_total'),
      help: 'Number of requests rejected by API Priority and Fairness subsystem',
      labelNames: [...PL_FS, 'reason'] as const,
      registers,
    }),
    dispatched: new Counter({
      name: name('dispatched_requests_total'),
      help: 'Number of requests executed by API Priority and Fairness subsystem',
      labelNames: PL_FS,
      registers,
    }),
    inQueue: new Gauge({
      name: name('current_inqueue_requests'),
      help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
      labelNames: PL_FS,
      registers,
    }),
    executing: new Gauge({
      name: name('current_executing_requests'),
      help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labelNames: PL_FS,
      registers,
    }),
    executingSeats: new Gauge({
      name: name('current_executing_seats'),
      help: 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
      labelNames: PL_FS,
      registers,
    }),
    waitDuration: new Histogram({
      name: name('request_wait_duration_seconds'),
      help: 'Length of time a request spent waiting in its queue',
      labelNames: [...PL_FS, 'execute'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    executionSeconds: new Histogram({
      name: name('request_execution_seconds'),
      help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
      labelNames: [...PL_FS, 'type'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
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
