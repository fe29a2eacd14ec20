/**
 * Making pods from a controller's template, and starting them in batches (upstream 1.33
 * pkg/controller/controller_utils.go GetPodFromTemplate, getPodsPrefix, RealPodControl's
 * createPods "no labels" check; pkg/controller/replicaset/replica_set.go slowStartBatch).
 */
import { deepCopy, type OwnerReference } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodTemplate } from './workload.js';

/** Upstream SlowStartInitialBatchSize: the first batch of creations is one pod. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** The longest object name (DNS subdomain). */
const MAX_NAME = 253;

/**
 * The generateName of a controller's pods (upstream getPodsPrefix): `<name>-`, or `<name>` when
 * the dash would make the prefix too long to be valid.
 */
export function podsPrefix(controllerName: string): string {
  return controllerName.length + 1 <= MAX_NAME ? `${controllerName}-` : controllerName;
}

/**
 * A pod to create from `template` for the controller `controllerName` (upstream
 * GetPodFromTemplate): the template's labels, annotations, finalizers and spec (copied),
 * generateName `<controllerName>-`, and `controllerRef` as its owner reference.
 * Throws Error `unable to create pods, no labels` when the template has no labels (upstream
 * createPods refuses such a pod, as no selector could ever match it).
 */
export function podFromTemplate(
  template: PodTemplate | undefined,
  namespace: string,
  controllerName: string,
  controllerRef: OwnerReference,
): Pod {
  const meta = template?.metadata ?? {};
  const labels = { ...(meta.labels ?? {}) };
  if (!Object.keys(labels).length) throw new Error('unable to create pods, no labels');
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: podsPrefix(controllerName), namespace, labels, ownerReferences: [controllerRef] },
    spec: deepCopy(template?.spec ?? undefined) as Pod['spec'],
  };
  if (meta.annotations) pod.metadata.annotations = { ...meta.annotations };
  if (meta.finalizers?.length) pod.metadata.finalizers = [...meta.finalizers];
  return pod;
}

/**
 * Call `fn` `count` times in batches: first `initialBatchSize` calls at once, then twice as many
 * at a time while every call of a batch succeeds (upstream slowStartBatch). After a batch with
 * a failure no more batches start. Returns how many calls succeeded and the first error.
 */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - failed.length;
    if (failed.length) return { successes, error: failed[0].reason };
    remaining -= batch;
  }
  return { successes };
}
