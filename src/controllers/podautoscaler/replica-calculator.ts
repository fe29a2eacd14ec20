/**
 * The replica calculator for resource metrics (upstream 1.33 pkg/controller/podautoscaler
 * replica_calculator.go GetResourceReplicas, GetRawResourceReplicas and calcPlainMetricReplicas):
 * the replicas that bring the pods' usage to the target, left at the current count within the
 * tolerance; pods missing a sample count as using 0 on a scale-up and their request (or the
 * target, when above 100%) on a scale-down; unready pods count as 0 on a scale-up; a change of
 * direction after that correction keeps the current count.
 */
import { matchesLabels, type LabelSelector } from '../../api/label-selector.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { getResourceMetric } from './metrics/resource-metrics.js';
import type { PodMetricsInfo, ResourceMetricsClient } from './metrics/types.js';
import { metricUsageRatio, resourceUtilizationRatio } from './metrics/utilization.js';
import { groupPods, podRequests, type PodGroups, type ReadinessTimings } from './pod-groups.js';

/** A target's pod selector: its text (for the metrics API) and its requirements. */
export interface PodSelector {
  readonly text: string;
  readonly requirements: LabelSelector;
}

/** What the calculator reads and how it decides. */
export interface ReplicaCalculatorOptions extends ReadinessTimings {
  readonly metrics: ResourceMetricsClient;
  /** Every pod of a namespace. */
  listPods(namespace: string): Promise<Pod[]>;
  readonly tolerance: number;
  /** The clock (ms; default Date.now). */
  readonly now?: () => number;
}

/** The answer of {@link ReplicaCalculator.resourceReplicas}. */
export interface ResourceReplicas {
  readonly replicas: number;
  /** Utilization (percentage of requests) of the pods with samples. */
  readonly utilization: number;
  /** Their average usage (milli-units). */
  readonly rawUtilization: number;
  readonly timestamp: number;
}

/** The answer of {@link ReplicaCalculator.rawResourceReplicas}: the average usage (milli-units). */
export interface RawResourceReplicas {
  readonly replicas: number;
  readonly usage: number;
  readonly timestamp: number;
}

const withoutPods = (metrics: PodMetricsInfo, names: Iterable<string>) => {
  for (const n of names) metrics.delete(n);
};

/** Whether scaling by `newRatio` after correction reverses the direction of `ratio`, or falls within tolerance. */
const keepsCurrent = (ratio: number, newRatio: number, tolerance: number) =>
  Math.abs(1 - newRatio) <= tolerance || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1);

export class ReplicaCalculator {
  constructor(private readonly opts: ReplicaCalculatorOptions) {}

  private async samples(resource: string, namespace: string, selector: PodSelector, container: string) {
    try {
      return await getResourceMetric(this.opts.metrics, resource, namespace, selector.text, container);
    } catch (err) {
      throw new Error(`unable to get metrics for resource ${resource}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The pods of the selector and their groups; throws upstream's errors for none. */
  private async grouped(namespace: string, selector: PodSelector, metrics: PodMetricsInfo, resource: string) {
    const pods = (await this.opts.listPods(namespace)).filter((p) =>
      matchesLabels(selector.requirements, p.metadata.labels),
    );
    if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
    const groups = groupPods(pods, metrics, resource, this.opts, (this.opts.now ?? Date.now)());
    withoutPods(metrics, groups.ignored);
    withoutPods(metrics, groups.unready);
    if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
    return { pods, groups };
  }

  /**
   * GetResourceReplicas: replicas for `targetUtilization` percent of the requests of
   * `resource`. Throws upstream's errors (no metrics, no pods, missing requests).
   */
  async resourceReplicas(
    currentReplicas: number,
    targetUtilization: number,
    resource: string,
    namespace: string,
    selector: PodSelector,
    container: string,
  ): Promise<ResourceReplicas> {
    const { metrics, timestamp } = await this.samples(resource, namespace, selector, container);
    const { pods, groups } = await this.grouped(namespace, selector, metrics, resource);
    const requests = podRequests(pods, container, resource);
    const first = resourceUtilizationRatio(metrics, requests, targetUtilization);
    const answer = (replicas: number) => ({
      replicas,
      utilization: first.utilization,
      rawUtilization: first.rawAverage,
      timestamp,
    });
    const fallback = (pod: string) => Math.trunc(((requests.get(pod) ?? 0) * Math.max(100, targetUtilization)) / 100);
    const corrected = this.correct(first.ratio, metrics, groups, fallback);
    if (corrected === 'direct') {
      if (Math.abs(1 - first.ratio) <= this.opts.tolerance) return answer(currentReplicas);
      return answer(Math.ceil(first.ratio * groups.readyPodCount));
    }
    const next = resourceUtilizationRatio(metrics, requests, targetUtilization).ratio;
    return answer(this.corrected(currentReplicas, first.ratio, next, metrics.size));
  }

  /** GetRawResourceReplicas: replicas for an average usage of `targetUsage` milli-units of `resource`. */
  async rawResourceReplicas(
    currentReplicas: number,
    targetUsage: number,
    resource: string,
    namespace: string,
    selector: PodSelector,
    container: string,
  ): Promise<RawResourceReplicas> {
    const { metrics, timestamp } = await this.samples(resource, namespace, selector, container);
    const { groups } = await this.grouped(namespace, selector, metrics, resource);
    const first = metricUsageRatio(metrics, targetUsage);
    const answer = (replicas: number) => ({ replicas, usage: first.usage, timestamp });
    const corrected = this.correct(first.ratio, metrics, groups, () => targetUsage);
    if (corrected === 'direct') {
      if (Math.abs(1 - first.ratio) <= this.opts.tolerance) return answer(currentReplicas);
      return answer(Math.ceil(first.ratio * groups.readyPodCount));
    }
    const next = metricUsageRatio(metrics, targetUsage).ratio;
    return answer(this.corrected(currentReplicas, first.ratio, next, metrics.size));
  }

  /**
   * Fill in samples of missing pods (0 up, `fallback` down) and unready pods (0, on a scale-up
   * only); 'direct' when there is nothing to correct.
   */
  private correct(
    ratio: number,
    metrics: PodMetricsInfo,
    groups: PodGroups,
    fallback: (pod: string) => number,
  ): 'direct' | 'corrected' {
    const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1;
    if (!scaleUpWithUnready && groups.missing.size === 0) return 'direct';
    for (const pod of groups.missing) {
      if (ratio < 1) metrics.set(pod, { value: fallback(pod), timestamp: 0, windowMs: 0 });
      else if (ratio > 1) metrics.set(pod, { value: 0, timestamp: 0, windowMs: 0 });
    }
    if (scaleUpWithUnready) for (const pod of groups.unready) metrics.set(pod, { value: 0, timestamp: 0, windowMs: 0 });
    return 'corrected';
  }

  /** The replicas after correction, or the current count when it would reverse the direction. */
  private corrected(current: number, ratio: number, next: number, counted: number): number {
    if (keepsCurrent(ratio, next, this.opts.tolerance)) return current;
    const replicas = Math.ceil(next * counted);
    if ((next < 1 && replicas > current) || (next > 1 && replicas < current)) return current;
    return replicas;
  }
}
