/**
 * Utilization helpers (upstream 1.33 pkg/controller/podautoscaler/metrics/utilization.go):
 * the ratio of current to target utilization over pods that have both a sample and a request,
 * and the ratio of the average of plain values to a target.
 */
import type { PodMetricsInfo } from './types.js';

/** The result of {@link resourceUtilizationRatio}. */
export interface UtilizationRatio {
  /** currentUtilization / targetUtilization. */
  readonly ratio: number;
  /** Total usage as a whole percentage of total requests (truncated). */
  readonly utilization: number;
  /** Average usage per pod (milli-units, truncated). */
  readonly rawAverage: number;
}

/**
 * GetResourceUtilizationRatio: samples of pods without a request are ignored. Throws
 * `no metrics returned matched known pods` when no requests are left (or they sum to 0).
 */
export function resourceUtilizationRatio(
  metrics: PodMetricsInfo,
  requests: ReadonlyMap<string, number>,
  targetUtilization: number,
): UtilizationRatio {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [pod, metric] of metrics) {
    const request = requests.get(pod);
    if (request === undefined) continue;
    metricsTotal += metric.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** GetMetricUsageRatio: the average sample (truncated) over `targetUsage`, with that average. */
export function metricUsageRatio(metrics: PodMetricsInfo, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}
