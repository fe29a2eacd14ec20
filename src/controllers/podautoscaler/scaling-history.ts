/**
 * What the autoscaler remembers per HPA between syncs (upstream 1.33 horizontal.go
 * `recommendations`, `scaleUpEvents`, `scaleDownEvents` and storeScaleEvent,
 * markScaleEventsOutdated, getReplicasChangePerPeriod): past recommendations for stabilization,
 * and past scale changes for the behavior policies' periods. Entries that fell out of every
 * window are reused rather than appended, as upstream does.
 */
import type { ScalingRules } from './types.js';

/** A recommendation and when it was made (ms). */
export interface TimestampedRecommendation {
  readonly recommendation: number;
  readonly timestamp: number;
}

/** A scale change (replicas added or removed) and when it happened (ms). */
export interface TimestampedScaleEvent {
  readonly replicaChange: number;
  readonly timestamp: number;
  outdated: boolean;
}

/** The longest policy period of `rules` (seconds). */
export const longestPolicyPeriod = (rules: ScalingRules | null | undefined): number =>
  Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds ?? 0));

/** The replicas changed by `events` within the last `periodSeconds` before `now` (getReplicasChangePerPeriod). */
export function replicasChangePerPeriod(periodSeconds: number, events: readonly TimestampedScaleEvent[], now: number) {
  const cutoff = now - periodSeconds * 1000;
  return events.reduce((sum, e) => (e.timestamp > cutoff ? sum + e.replicaChange : sum), 0);
}

export class ScalingHistory {
  readonly recommendations = new Map<string, TimestampedRecommendation[]>();
  readonly scaleUpEvents = new Map<string, TimestampedScaleEvent[]>();
  readonly scaleDownEvents = new Map<string, TimestampedScaleEvent[]>();

  /** recordInitialRecommendation: the current replicas as the first recommendation of `key`. */
  recordInitial(key: string, currentReplicas: number, now: number): void {
    if (!this.recommendations.has(key))
      this.recommendations.set(key, [{ recommendation: currentReplicas, timestamp: now }]);
  }

  /** Forget `key` (its HPA was deleted). */
  forget(key: string): void {
    this.recommendations.delete(key);
    this.scaleUpEvents.delete(key);
    this.scaleDownEvents.delete(key);
  }

  /** Record `recommendation` for `key`, in place of the sample at `reuse` when given. */
  recordRecommendation(key: string, recommendation: number, now: number, reuse?: number): void {
    const list = this.recommendations.get(key) ?? [];
    const entry = { recommendation, timestamp: now };
    if (reuse !== undefined) list[reuse] = entry;
    else list.push(entry);
    this.recommendations.set(key, list);
  }

  /**
   * storeScaleEvent: remember a change from `prev` to `next` replicas (only with a behavior),
   * reusing an event older than the direction's longest policy period.
   */
  storeScaleEvent(
    behavior: { scaleUp?: ScalingRules | null; scaleDown?: ScalingRules | null } | null | undefined,
    key: string,
    prev: number,
    next: number,
    now: number,
  ): void {
    if (!behavior) return;
    const up = next > prev;
    const map = up ? this.scaleUpEvents : this.scaleDownEvents;
    const period = longestPolicyPeriod(up ? behavior.scaleUp : behavior.scaleDown);
    const list = map.get(key) ?? [];
    const cutoff = now - period * 1000;
    for (const e of list) if (e.timestamp < cutoff) e.outdated = true;
    let reuse = -1;
    list.forEach((e, i) => {
      if (e.outdated) reuse = i;
    });
    const event = { replicaChange: up ? next - prev : prev - next, timestamp: now, outdated: false };
    if (reuse >= 0) list[reuse] = event;
    else list.push(event);
    map.set(key, list);
  }
}
