/**
 * A replica controller's status (upstream 1.33 pkg/controller/replicaset/replica_set_utils.go
 * calculateStatus, updateReplicaSetStatus's "nothing changed" test, SetCondition,
 * RemoveCondition): replicas, fullyLabeledReplicas, readyReplicas, availableReplicas from the
 * controller's active pods, observedGeneration, and the `ReplicaFailure` condition while
 * creating or deleting pods fails. (terminatingReplicas is behind the alpha
 * DeploymentReplicaSetTerminatingReplicas gate, off in 1.33, so it is not written.)
 */
import { rfc3339 } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { errorMessage } from '../../api/error-message.js';
import { isPodAvailable, isPodReady } from './pod-ranking.js';
import { desiredReplicas, type Workload, type WorkloadCondition, type WorkloadStatus } from './workload.js';

/** The condition type set while pods cannot be created or deleted. */
export const REPLICA_FAILURE = 'ReplicaFailure';

/**
 * Set `condition` in `status` unless one of its type with the same status and reason is there
 * (which keeps its lastTransitionTime); otherwise replace that type's (upstream SetCondition).
 */
export function setCondition(status: WorkloadStatus, condition: WorkloadCondition): void {
  const current = status.conditions?.find((c) => c.type === condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), condition];
}

/** Remove the conditions of `type` (upstream RemoveCondition). */
export function removeCondition(status: WorkloadStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

/**
 * The status of `obj` given its active, claimed pods and the error of this sync's creations or
 * deletions (undefined: none), at `now` (ms; for availability with minReadySeconds). Pods
 * count as fully labeled when they carry every label of the template. Returns a new status;
 * observedGeneration is set by the writer.
 */
export function calculateStatus(
  obj: Workload,
  pods: readonly Pod[],
  manageError: unknown,
  now = Date.now(),
): WorkloadStatus {
  const status: WorkloadStatus = structuredClone(obj.status ?? {});
  const templateLabels = Object.entries(obj.spec?.template?.metadata?.labels ?? {});
  const minReady = obj.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    if (templateLabels.every(([k, v]) => pod.metadata.labels?.[k] === v)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
  }
  const failure = obj.status?.conditions?.find((c) => c.type === REPLICA_FAILURE);
  if (manageError !== undefined && !failure) {
    const diff = pods.length - desiredReplicas(obj);
    const condition: WorkloadCondition = {
      type: REPLICA_FAILURE,
      status: 'True',
      lastTransitionTime: rfc3339(new Date(now)),
      message: errorMessage(manageError),
    };
    if (diff !== 0) condition.reason = diff < 0 ? 'FailedCreate' : 'FailedDelete';
    setCondition(status, condition);
  } else if (manageError === undefined && failure) {
    removeCondition(status, REPLICA_FAILURE);
  }
  if (status.conditions && !status.conditions.length) delete status.conditions;
  status.replicas = pods.length;
  status.fullyLabeledReplicas = fullyLabeled;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  return status;
}

/**
 * Whether writing `next` would change nothing (upstream updateReplicaSetStatus's early return):
 * the counts and conditions equal, and the generation already observed.
 */
export function statusUnchanged(obj: Workload, next: WorkloadStatus): boolean {
  const cur = obj.status ?? {};
  return (
    (cur.replicas ?? 0) === (next.replicas ?? 0) &&
    (cur.fullyLabeledReplicas ?? 0) === (next.fullyLabeledReplicas ?? 0) &&
    (cur.readyReplicas ?? 0) === (next.readyReplicas ?? 0) &&
    (cur.availableReplicas ?? 0) === (next.availableReplicas ?? 0) &&
    (obj.metadata.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    JSON.stringify(cur.conditions ?? []) === JSON.stringify(next.conditions ?? [])
  );
}
