/**
 * The `endpoints.kubernetes.io/last-change-trigger-time` annotation's value (upstream 1.33
 * k8s.io/endpointslice/util/trigger_time_tracker.go TriggerTimeTracker): per Service, the
 * earliest of the changes not yet exported, where a change is a pod's Ready condition
 * transition newer than last seen, or the Service's creation; the first sync of a Service
 * answers its creation time. Times are ms since the epoch; 0 is "none" (Go's zero time).
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';

/** The annotation the controllers write. */
export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

interface ServiceState {
  lastServiceTriggerTime: number;
  lastPodTriggerTimes: Map<string, number>;
}

const millis = (t: string | null | undefined): number => (t ? Date.parse(t) || 0 : 0);

/** Keeps, per Service, the trigger times already exported. */
export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** The trigger time of this sync of `service` over `pods` (0: none), remembering what it saw. */
  compute(namespace: string, service: Service, pods: readonly Pod[]): number {
    const key = `${namespace}/${service.metadata.name ?? ''}`;
    const known = this.states.get(key);
    const state = known ?? { lastServiceTriggerTime: 0, lastPodTriggerTimes: new Map<string, number>() };
    let min = 0;
    const earliest = (t: number) => {
      if (!min || t < min) min = t;
    };
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const t = millis(ready?.lastTransitionTime);
      if (!t) continue;
      const name = pod.metadata.name ?? '';
      podTimes.set(name, t);
      if (t > (state.lastPodTriggerTimes.get(name) ?? 0)) earliest(t);
    }
    const serviceTime = millis(service.metadata.creationTimestamp);
    if (serviceTime > state.lastServiceTriggerTime) earliest(serviceTime);
    this.states.set(key, { lastServiceTriggerTime: serviceTime, lastPodTriggerTimes: podTimes });
    return known ? min : serviceTime;
  }

  /** Forget a deleted Service. */
  deleteService(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}

/** `ms` formatted as Go's time.RFC3339Nano in UTC (no trailing zeros in the fraction). */
export function formatRFC3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2018-01-01T00:00:00.000Z
  const [whole, frac = ''] = iso.slice(0, -1).split('.');
  const trimmed = frac.replace(/0+$/, '');
  return `${whole}${trimmed ? `.${trimmed}` : ''}Z`;
}

/**
 * `annotations` with the trigger-time annotation set to `triggerTime`, or removed when it is 0
 * (upstream addTriggerTimeAnnotation and the Endpoints controller's equivalent).
 */
export function withTriggerTime(
  annotations: Readonly<Record<string, string>> | null | undefined,
  triggerTime: number,
): Record<string, string> {
  const out = { ...(annotations ?? {}) };
  if (triggerTime) out[LAST_CHANGE_TRIGGER_TIME] = formatRFC3339Nano(triggerTime);
  else delete out[LAST_CHANGE_TRIGGER_TIME];
  return out;
}
