/**
 * What the StatefulSet controller reads of a set and its pods (upstream 1.33
 * pkg/controller/statefulset/stateful_set_utils.go: controllerKind, isCreated, isPending,
 * isFailed, isSucceeded, isTerminating, isRunningAndReady, isRunningAndAvailable, isHealthy,
 * isUnavailable, allowsBurst, getStatefulSetMaxUnavailable).
 */
import type { OwnerReference } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { scaledValue } from '../deployment/replicas.js';
import { isPodAvailable, isPodReady } from '../replicaset/pod-ranking.js';

/** The set's kind as its controllerRef names it (upstream controllerKind). */
export const STATEFUL_SET_KIND = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;

/** The controller's service account in kube-system, also its Events' source component. */
export const STATEFUL_SET_CONTROLLER = 'statefulset-controller';

/** The set's status (StatefulSetStatus). */
export type StatefulSetStatus = NonNullable<StatefulSet['status']>;

/** The controllerRef the set puts on its pods and revisions (metav1.NewControllerRef). */
export function setControllerRef(set: StatefulSet): OwnerReference {
  return {
    ...STATEFUL_SET_KIND,
    name: set.metadata.name ?? '',
    uid: set.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** A pod the server holds: it has a phase (upstream isCreated). */
export const isCreated = (pod: Pod): boolean => Boolean(pod.status?.phase);
/** Upstream isPending. */
export const isPending = (pod: Pod): boolean => pod.status?.phase === 'Pending';
/** Upstream isFailed. */
export const isFailed = (pod: Pod): boolean => pod.status?.phase === 'Failed';
/** Upstream isSucceeded. */
export const isSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Succeeded';
/** A pod with a deletionTimestamp (upstream isTerminating). */
export const isTerminating = (pod: Pod): boolean => Boolean(pod.metadata.deletionTimestamp);
/** Phase Running and condition Ready True (upstream isRunningAndReady). */
export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);

/** Ready for more than minReadySeconds at `now` (ms since the epoch; upstream isRunningAndAvailable). */
export const isRunningAndAvailable = (pod: Pod, minReadySeconds: number, now: number): boolean =>
  isPodAvailable(pod, minReadySeconds, now);

/** Running, ready and not terminating (upstream isHealthy). */
export const isHealthy = (pod: Pod): boolean => isRunningAndReady(pod) && !isTerminating(pod);

/** Not healthy, or not yet available (upstream isUnavailable). */
export const isUnavailable = (pod: Pod, minReadySeconds: number, now: number): boolean =>
  !isHealthy(pod) || !isRunningAndAvailable(pod, minReadySeconds, now);

/** podManagementPolicy Parallel: pods are created and deleted without waiting (upstream allowsBurst). */
export const allowsBurst = (set: StatefulSet): boolean => set.spec?.podManagementPolicy === 'Parallel';

/**
 * rollingUpdate.maxUnavailable as a count of `replicas` (upstream getStatefulSetMaxUnavailable):
 * default 1, a percentage rounded down, never below 1. Throws Error for a malformed string.
 */
export function maxUnavailableOf(value: number | string | null | undefined, replicas: number): number {
  return Math.max(1, scaledValue(value ?? 1, replicas, false));
}
