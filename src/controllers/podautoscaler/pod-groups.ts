/**
 * How the replica calculator sorts a target's pods (upstream 1.33 pkg/controller/podautoscaler
 * replica_calculator.go groupPods and calculatePodRequests): pods being deleted or Failed are
 * ignored; Pending pods, and for cpu pods not ready or whose sample predates readiness within
 * the cpu initialization period, are unready; pods without a sample are missing; the rest are
 * ready. Requests are summed over a pod's containers and restartable init containers (or taken
 * from one container), in milli-units.
 */
import { milliValue, parseQuantity } from '../../api/quantity.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodMetricsInfo } from './metrics/types.js';

/** The pods of a target as groupPods sorts them (names). */
export interface PodGroups {
  readonly readyPodCount: number;
  readonly unready: ReadonlySet<string>;
  readonly missing: ReadonlySet<string>;
  readonly ignored: ReadonlySet<string>;
}

/** The timings groupPods uses (ms). */
export interface ReadinessTimings {
  readonly cpuInitializationPeriodMs: number;
  readonly delayOfInitialReadinessStatusMs: number;
}

const timeOf = (t: string | null | undefined): number | undefined => (t ? Date.parse(t) : undefined);

/** Whether a cpu sample of `pod` is to be ignored as unready (upstream's readiness rules). */
function unreadyForCpu(pod: Pod, sample: { timestamp: number; windowMs: number }, t: ReadinessTimings, now: number) {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const start = timeOf(pod.status?.startTime);
  if (!ready || start === undefined) return true;
  const transition = timeOf(ready.lastTransitionTime) ?? Date.parse('0001-01-01T00:00:00Z');
  if (start + t.cpuInitializationPeriodMs > now)
    return ready.status === 'False' || sample.timestamp < transition + sample.windowMs;
  return ready.status === 'False' && start + t.delayOfInitialReadinessStatusMs > transition;
}

/** groupPods over `pods` and the samples `metrics` of `resource` at time `now` (ms). */
export function groupPods(
  pods: readonly Pod[],
  metrics: PodMetricsInfo,
  resource: string,
  timings: ReadinessTimings,
  now: number,
): PodGroups {
  let readyPodCount = 0;
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      unready.add(name);
      continue;
    }
    const sample = metrics.get(name);
    if (!sample) {
      missing.add(name);
      continue;
    }
    if (resource === 'cpu' && unreadyForCpu(pod, sample, timings, now)) {
      unready.add(name);
      continue;
    }
    readyPodCount++;
  }
  return { readyPodCount, unready, missing, ignored };
}

/**
 * calculatePodRequests: each pod's request of `resource` (milli-units) over its containers and
 * restartable init containers, or container `container` only. Throws `missing request for
 * <resource> in container <c> of Pod <pod>` when a counted container has none.
 */
export function podRequests(pods: readonly Pod[], container: string, resource: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    const containers = [
      ...(pod.spec?.containers ?? []),
      ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ];
    let sum = 0;
    for (const c of containers) {
      if (container && container !== c.name) continue;
      const request = (c.resources?.requests as Record<string, string | number> | undefined | null)?.[resource];
      if (request === undefined || request === null)
        throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
      sum += Number(milliValue(parseQuantity(request)));
    }
    out.set(pod.metadata.name ?? '', sum);
  }
  return out;
}
