/**
 * Marking the pods of a node that is not Ready (upstream 1.33 pkg/controller/util/node
 * controller_utils.go MarkPodsNotReady with pkg/api/v1/pod UpdatePodCondition): each pod on the
 * node whose Ready condition is not False gets it False (the transition time now, reason and
 * message kept), written through pods/status; a pod without a Ready condition is left alone.
 */
import { rfc3339 } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';

/** The pod's status with Ready set False at `now`; undefined when there is nothing to change. */
export function podNotReadyStatus(pod: Pod, now: Date): NonNullable<Pod['status']> | undefined {
  const conditions = pod.status?.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === 'Ready');
  if (i < 0 || conditions[i]!.status === 'False') return undefined;
  const next = { ...conditions[i]!, status: 'False', lastTransitionTime: rfc3339(now) };
  return { ...pod.status, conditions: conditions.map((c, j) => (j === i ? next : c)) };
}

/** What marking pods needs: a status write (404 means the pod is gone) and the pod's Event. */
export interface MarkPodsClient {
  writePodStatus(pod: Pod, status: NonNullable<Pod['status']>): Promise<void>;
  /** A Warning Event `NodeNotReady` "Node is not ready" about the pod. */
  podNotReadyEvent(pod: Pod): void;
}

/**
 * Set Ready False on each of `pods` that is on `nodeName` (upstream MarkPodsNotReady). Throws
 * an AggregateError of the writes that failed (a pod already gone is not a failure).
 */
export async function markPodsNotReady(
  client: MarkPodsClient,
  pods: readonly Pod[],
  nodeName: string,
  now: Date,
): Promise<void> {
  const errors: unknown[] = [];
  for (const pod of pods) {
    if (pod.spec?.nodeName !== nodeName) continue;
    const status = podNotReadyStatus(pod, now);
    if (!status) continue;
    try {
      await client.writePodStatus(pod, status);
    } catch (err) {
      if ((err as { code?: number }).code === 404) continue;
      errors.push(err);
    }
    client.podNotReadyEvent(pod);
  }
  if (errors.length) throw new AggregateError(errors, `marking pods on node ${nodeName} not ready failed`);
}
