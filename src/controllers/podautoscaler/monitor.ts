/**
 * The autoscaler's Prometheus metrics (upstream 1.33 pkg/controller/podautoscaler/monitor:
 * names, labels, help and buckets): reconciliations and metric computations counted and timed
 * by action (`scale_up`, `scale_down`, `none`) and error (`spec`, `internal`, `none`), metric
 * computations also by the metric's type. Registered on the server's registry when given.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export type ActionLabel = 'scale_up' | 'scale_down' | 'none';
export type ErrorLabel = 'spec' | 'internal' | 'none';

/** What the controller reports (upstream's Monitor interface). */
export interface HpaMonitor {
  observeReconciliationResult(action: ActionLabel, error: ErrorLabel, seconds: number): void;
  observeMetricComputationResult(action: ActionLabel, error: ErrorLabel, seconds: number, metricType: string): void;
}

/** A monitor that records nothing (tests, or no registry). */
export const NO_MONITOR: HpaMonitor = {
  observeReconciliationResult: () => undefined,
  observeMetricComputationResult: () => undefined,
};

/** An error of the HPA's spec (upstream's errSpec): labelled `spec` rather than `internal`. */
export class SpecError extends Error {}

/** The error label of `err` (none when there is none). */
export const errorLabelOf = (err: unknown): ErrorLabel =>
  !err ? 'none' : err instanceof SpecError || (err as { spec?: unknown }).spec === true ? 'spec' : 'internal';

/** The action label of a change from `current` to `next` replicas. */
export const actionLabelOf = (current: number, next: number): ActionLabel =>
  next > current ? 'scale_up' : next < current ? 'scale_down' : 'none';

const SUBSYSTEM = 'horizontal_pod_autoscaler_controller';
/** metrics.ExponentialBuckets(0.001, 2, 15). */
const BUCKETS = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);
const LABELS_HELP =
  "The label 'action' should be either 'scale_down', 'scale_up', or 'none'. Also, the label 'error' should be either 'spec', 'internal', or 'none'.";
const FIRST_ERROR =
  'Note that if both spec and internal errors happen during a reconciliation, the first one to occur is reported in `error` label.';

/** Register upstream's four metrics on `registry` (once per registry). */
export function createHpaMonitor(registry: Registry): HpaMonitor {
  const registers = [registry];
  const reconciliations = new Counter({
    name: `${SUBSYSTEM}_reconciliations_total`,
    help: `Number of reconciliations of HPA controller. ${LABELS_HELP} ${FIRST_ERROR}`,
    labelNames: ['action', 'error'],
    registers,
  });
  const reconciliationDuration = new Histogram({
    name: `${SUBSYSTEM}_reconciliation_duration_seconds`,
    help: `The time(seconds) that the HPA controller takes to reconcile once. ${LABELS_HELP} ${FIRST_ERROR}`,
    labelNames: ['action', 'error'],
    buckets: BUCKETS,
    registers,
  });
  const computations = new Counter({
    name: `${SUBSYSTEM}_metric_computation_total`,
    help: `Number of metric computations. ${LABELS_HELP} The label 'metric_type' corresponds to HPA.spec.metrics[*].type`,
    labelNames: ['action', 'error', 'metric_type'],
    registers,
  });
  const computationDuration = new Histogram({
    name: `${SUBSYSTEM}_metric_computation_duration_seconds`,
    help: `The time(seconds) that the HPA controller takes to calculate one metric. ${LABELS_HELP} The label 'metric_type' corresponds to HPA.spec.metrics[*].type`,
    labelNames: ['action', 'error', 'metric_type'],
    buckets: BUCKETS,
    registers,
  });
  return {
    observeReconciliationResult(action, error, seconds) {
      reconciliations.inc({ action, error });
      reconciliationDuration.observe({ action, error }, seconds);
    },
    observeMetricComputationResult(action, error, seconds, metricType) {
      computations.inc({ action, error, metric_type: metricType });
      computationDuration.observe({ action, error, metric_type: metricType }, seconds);
    },
  };
}
