/**
 * computeReplicasForMetrics and computeReplicasForMetric for Resource and ContainerResource
 * metrics (upstream 1.33 horizontal.go computeStatusForResourceMetricGeneric,
 * computeStatusForResourceMetric, computeStatusForContainerResourceMetric): each metric's
 * proposal and status; the largest proposal wins. When every metric failed, or some failed and
 * the rest would scale down, the first failure's condition is set and the computation fails
 * (replicas -1); otherwise ScalingActive is True (ValidMetricFound).
 */
import { milliValue, parseQuantity, Quantity, formatQuantity } from '../../api/quantity.js';
import type { Hpa } from '../../resources/horizontalpodautoscalers/hpa.schema.js';
import type { LegacyEvent } from '../events.js';
import { setCondition } from './conditions.js';
import { customMetricFailure } from './custom-metrics.js';
import { MetricError } from './metric-error.js';
import { actionLabelOf, errorLabelOf, type HpaMonitor } from './monitor.js';
import type { PodSelector, ReplicaCalculator } from './replica-calculator.js';
import type { MetricSpec, MetricStatus, MetricValueStatus } from './types.js';

/** What computing the metrics of one HPA needs. */
export interface MetricsInput {
  readonly hpa: Hpa;
  readonly calc: ReplicaCalculator;
  readonly selector: PodSelector;
  readonly specReplicas: number;
  readonly statusReplicas: number;
  readonly record: (event: LegacyEvent) => void;
  /** Where each metric's computation is reported (upstream's monitor). */
  readonly monitor?: HpaMonitor;
}

/** One metric's proposal. */
interface Proposal {
  readonly replicas: number;
  readonly metric: string;
  readonly timestamp: number;
  readonly status: MetricStatus;
}

/** The result of computeReplicasForMetrics: replicas -1 when the HPA cannot scale on its metrics. */
export interface MetricsResult {
  readonly replicas: number;
  readonly metric: string;
  readonly statuses: MetricStatus[];
  readonly timestamp: number;
  readonly error?: Error;
}

/** resource.NewMilliQuantity(v, DecimalSI) as text. */
export const milliQuantity = (milli: number): string => formatQuantity(new Quantity(BigInt(milli), -3, 'DecimalSI'));

type Target = NonNullable<NonNullable<MetricSpec['resource']>['target']>;

/** computeStatusForResourceMetricGeneric: throws Error with upstream's wrapping. */
async function resourceProposal(
  input: MetricsInput,
  target: Target,
  resource: string,
  container: string,
): Promise<{ replicas: number; current: MetricValueStatus; metric: string; timestamp: number }> {
  const ns = input.hpa.metadata.namespace ?? '';
  if (target.averageValue != null) {
    const targetUsage = Number(milliValue(parseQuantity(target.averageValue)));
    try {
      const r = await input.calc.rawResourceReplicas(
        input.specReplicas,
        targetUsage,
        resource,
        ns,
        input.selector,
        container,
      );
      return {
        replicas: r.replicas,
        current: { averageValue: milliQuantity(r.usage) },
        metric: `${resource} resource`,
        timestamp: r.timestamp,
      };
    } catch (err) {
      throw new Error(`failed to get ${resource} usage: ${(err as Error).message}`, { cause: err });
    }
  }
  if (target.averageUtilization == null)
    throw new Error(
      'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set',
    );
  try {
    const r = await input.calc.resourceReplicas(
      input.specReplicas,
      target.averageUtilization,
      resource,
      ns,
      input.selector,
      container,
    );
    const metric = container
      ? `${resource} container resource utilization (percentage of request)`
      : `${resource} resource utilization (percentage of request)`;
    return {
      replicas: r.replicas,
      current: { averageUtilization: r.utilization, averageValue: milliQuantity(r.rawUtilization) },
      metric,
      timestamp: r.timestamp,
    };
  } catch (err) {
    throw new Error(`failed to get ${resource} utilization: ${(err as Error).message}`, { cause: err });
  }
}

/** computeReplicasForMetric: one metric's proposal; throws MetricError. */
async function computeReplicasForMetric(input: MetricsInput, spec: MetricSpec): Promise<Proposal> {
  if (spec.type === 'Resource' || spec.type === 'ContainerResource') {
    const container = spec.type === 'ContainerResource';
    const src = container ? spec.containerResource : spec.resource;
    const name = src?.name ?? '';
    const containerName = container ? (spec.containerResource?.container ?? '') : '';
    try {
      const p = await resourceProposal(input, src?.target ?? {}, name, containerName);
      const status: MetricStatus = container
        ? { type: 'ContainerResource', containerResource: { name, container: containerName, current: p.current } }
        : { type: 'Resource', resource: { name, current: p.current } };
      return { replicas: p.replicas, metric: p.metric, timestamp: p.timestamp, status };
    } catch (err) {
      const cause = (err as Error).message;
      const [reason, what] = container
        ? ['FailedGetContainerResourceMetric', `${containerName} container`]
        : ['FailedGetResourceMetric', `${name} resource`];
      throw new MetricError(`failed to get ${what} metric value: ${cause}`, reason, cause);
    }
  }
  return customMetricFailure(spec, input.hpa.metadata.namespace ?? '');
}

/**
 * computeReplicasForMetrics over `metrics`: sets ScalingActive on the HPA and records the
 * failed metrics' Warning events.
 */
export async function computeReplicasForMetrics(
  input: MetricsInput,
  metrics: readonly MetricSpec[],
): Promise<MetricsResult> {
  const statuses: MetricStatus[] = metrics.map(() => ({ type: '' }));
  let replicas = 0;
  let metric = '';
  let timestamp = 0;
  let invalid = 0;
  let first: MetricError | undefined;
  for (const [i, spec] of metrics.entries()) {
    const start = performance.now();
    const observe = (action: ReturnType<typeof actionLabelOf>, err?: unknown) =>
      input.monitor?.observeMetricComputationResult(
        action,
        errorLabelOf(err),
        (performance.now() - start) / 1000,
        spec.type ?? '',
      );
    try {
      const p = await computeReplicasForMetric(input, spec);
      observe(actionLabelOf(input.hpa.status?.currentReplicas ?? 0, p.replicas));
      statuses[i] = p.status;
      if (replicas === 0 || p.replicas > replicas) ({ replicas, metric, timestamp } = p);
    } catch (err) {
      observe('none', err);
      const failure =
        err instanceof MetricError ? err : new MetricError(String(err), 'FailedGetResourceMetric', String(err));
      input.record({ type: 'Warning', reason: failure.reason, message: failure.detail });
      first ??= failure;
      invalid++;
    }
  }
  const error =
    first &&
    new Error(`invalid metrics (${invalid} invalid out of ${metrics.length}), first error is: ${first.message}`);
  if (first && (invalid >= metrics.length || replicas < input.specReplicas)) {
    setCondition(input.hpa, first.condition);
    return { replicas: -1, metric: '', statuses, timestamp: 0, error };
  }
  setCondition(input.hpa, {
    type: 'ScalingActive',
    status: 'True',
    reason: 'ValidMetricFound',
    message: `the HPA was able to successfully calculate a replica count from ${metric}`,
  });
  return { replicas, metric, statuses, timestamp, error };
}
