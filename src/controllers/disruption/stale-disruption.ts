/**
 * Stale DisruptionTarget conditions (upstream 1.33 pkg/controller/disruption/disruption.go
 * nonTerminatingPodHasStaleDisruptionCondition, syncStalePodDisruption; pkg/api/v1/pod
 * UpdatePodCondition): a pod marked `DisruptionTarget=True` (by an eviction, a preemption, a
 * taint eviction) that is still not being deleted two minutes after the condition's
 * lastTransitionTime will not be disrupted after all, and the condition is set back to False
 * (type and status only, lastTransitionTime now) through `pods/status`. The kubelet's own
 * condition (reason TerminationByKubelet) and pods in a terminal phase are left alone.
 */
import { rfc3339 } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { DisruptionClient } from './types.js';

/** Upstream stalePodDisruptionTimeout (ms). */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

/** The pod condition type (v1.DisruptionTarget). */
export const DISRUPTION_TARGET = 'DisruptionTarget';

/**
 * Upstream nonTerminatingPodHasStaleDisruptionCondition at `now` (ms): undefined when the pod
 * has no condition that may go stale, else how long until it is stale (0: it is).
 */
export function staleDisruptionWait(
  pod: Pod,
  now: number,
  timeoutMs = STALE_POD_DISRUPTION_TIMEOUT_MS,
): number | undefined {
  if (pod.metadata.deletionTimestamp) return undefined;
  const cond = pod.status?.conditions?.find((c) => c.type === DISRUPTION_TARGET);
  const phase = pod.status?.phase;
  if (!cond || cond.status !== 'True' || cond.reason === 'TerminationByKubelet') return undefined;
  if (phase === 'Succeeded' || phase === 'Failed') return undefined;
  const since = Date.parse(cond.lastTransitionTime ?? '');
  // Go's zero time is long past: a condition without a time is stale at once.
  return Math.max(0, timeoutMs - (now - (Number.isFinite(since) ? since : 0)));
}

/**
 * Upstream syncStalePodDisruption of the pod `namespace/name` at `now`: nothing when it is gone
 * or has no stale condition; `{ retryAfterMs }` while the condition is not stale yet; else the
 * condition is written False. Throws what the status write throws (a 409 is retried by the queue).
 */
export async function syncStalePodDisruption(
  client: DisruptionClient,
  namespace: string,
  name: string,
  now = Date.now(),
  timeoutMs = STALE_POD_DISRUPTION_TIMEOUT_MS,
): Promise<{ readonly retryAfterMs?: number }> {
  const pod = await client.getPod(namespace, name);
  if (!pod) return {};
  const wait = staleDisruptionWait(pod, now, timeoutMs);
  if (wait === undefined) return {};
  if (wait > 0) return { retryAfterMs: wait };
  const conditions = (pod.status?.conditions ?? []).map((c) =>
    c.type === DISRUPTION_TARGET
      ? { type: DISRUPTION_TARGET, status: 'False', lastTransitionTime: rfc3339(new Date(now)) }
      : c,
  );
  await client.writePodStatus({ ...pod, status: { ...pod.status, conditions } });
  return {};
}
