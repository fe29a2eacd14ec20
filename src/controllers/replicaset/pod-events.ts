/**
 * How pod events wake replica controllers (upstream 1.33 pkg/controller/replicaset/replica_set.go
 * addPod, updatePod, deletePod, resolveControllerRef, getPodReplicaSets): a pod with a
 * controllerRef wakes its controller (observing a creation or a deletion for its
 * expectations); an orphan wakes every controller whose selector matches it, so one adopts it.
 */
import { isDeepStrictEqual } from 'node:util';
import { matchesLabels } from '../../api/label-selector.js';
import type { OwnerReference } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ControllerExpectations } from './expectations.js';
import { isPodReady } from './pod-ranking.js';
import { controllerOf, keyOf, type Workload, type WorkloadKind } from './workload.js';

/** What the handlers read and whom they wake. */
export interface PodEventTarget {
  readonly kind: WorkloadKind;
  readonly expectations: ControllerExpectations;
  /** The controller of this kind named `name` in `namespace` (cache read), undefined when absent. */
  getController(namespace: string, name: string): Promise<Workload | undefined>;
  /** The namespace's controllers of this kind. */
  listControllers(namespace: string): Promise<Workload[]>;
  /** Queue a sync of `key` (`namespace/name`), after `afterMs` when given. */
  enqueue(key: string, afterMs?: number): void;
}

/** The controller `ref` names, if it is of this kind and still has that uid (upstream resolveControllerRef). */
export async function resolveControllerRef(
  namespace: string,
  ref: OwnerReference,
  target: PodEventTarget,
): Promise<Workload | undefined> {
  if (ref.kind !== target.kind.kind) return undefined;
  const obj = await target.getController(namespace, ref.name);
  return obj?.metadata.uid === ref.uid ? obj : undefined;
}

/** The controllers whose non-empty selector matches the pod's labels (upstream GetPodReplicaSets). */
export async function controllersSelecting(pod: Pod, target: PodEventTarget): Promise<Workload[]> {
  const all = await target.listControllers(pod.metadata.namespace ?? '');
  return all.filter((c) => {
    try {
      const sel = target.kind.selectorOf(c);
      return sel !== null && sel.length > 0 && matchesLabels(sel, pod.metadata.labels);
    } catch {
      return false;
    }
  });
}

/** A pod appeared (upstream addPod). */
export async function podAdded(pod: Pod, target: PodEventTarget): Promise<void> {
  if (pod.metadata.deletionTimestamp) return podDeleted(pod, target);
  const ref = controllerOf(pod);
  if (ref) {
    const owner = await resolveControllerRef(pod.metadata.namespace ?? '', ref, target);
    if (!owner) return;
    target.expectations.creationObserved(keyOf(owner));
    target.enqueue(keyOf(owner));
    return;
  }
  for (const c of await controllersSelecting(pod, target)) target.enqueue(keyOf(c));
}

/** A pod changed from `old` to `cur` (upstream updatePod). */
export async function podUpdated(old: Pod, cur: Pod, target: PodEventTarget): Promise<void> {
  if (cur.metadata.resourceVersion === old.metadata.resourceVersion) return;
  const labelChanged = !isDeepStrictEqual(cur.metadata.labels ?? {}, old.metadata.labels ?? {});
  if (cur.metadata.deletionTimestamp) {
    await podDeleted(cur, target);
    if (labelChanged) await podDeleted(old, target);
    return;
  }
  const namespace = cur.metadata.namespace ?? '';
  const [curRef, oldRef] = [controllerOf(cur), controllerOf(old)];
  const refChanged = !isDeepStrictEqual(curRef, oldRef);
  if (refChanged && oldRef) {
    const previous = await resolveControllerRef(namespace, oldRef, target);
    if (previous) target.enqueue(keyOf(previous));
  }
  if (curRef) {
    const owner = await resolveControllerRef(namespace, curRef, target);
    if (!owner) return;
    target.enqueue(keyOf(owner));
    const minReady = owner.spec?.minReadySeconds ?? 0;
    // A pod just became ready: check availability once minReadySeconds have passed (+1 s skew).
    if (!isPodReady(old) && isPodReady(cur) && minReady > 0) target.enqueue(keyOf(owner), minReady * 1000 + 1000);
    return;
  }
  if (labelChanged || refChanged) for (const c of await controllersSelecting(cur, target)) target.enqueue(keyOf(c));
}

/** A pod was deleted, or marked for deletion (upstream deletePod). */
export async function podDeleted(pod: Pod, target: PodEventTarget): Promise<void> {
  const ref = controllerOf(pod);
  if (!ref) return;
  const owner = await resolveControllerRef(pod.metadata.namespace ?? '', ref, target);
  if (!owner) return;
  target.expectations.deletionObserved(keyOf(owner), keyOf(pod));
  target.enqueue(keyOf(owner));
}
