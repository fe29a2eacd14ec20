/**
 * Builders for the replica controller's unit tests, after upstream's replica_set_test.go
 * newReplicaSet / newPod / newPodList (not used by the controller itself).
 */
import { randomUUID } from 'node:crypto';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ReplicaSet } from '../../resources/replicasets/replicasets.schema.js';

/** A ReplicaSet `foobar` in `default` selecting `selector`, owned (as controller) by uid `123`. */
export function newReplicaSet(replicas: number, selector: Record<string, string>): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      uid: randomUUID(),
      name: 'foobar',
      namespace: 'default',
      generation: 1,
      resourceVersion: '18',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: '123', controller: true }],
    },
    spec: {
      replicas,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: { name: 'foo', type: 'production' } },
        spec: { containers: [{ name: 'c', image: 'foo/bar' }], restartPolicy: 'Always', nodeSelector: { baz: 'blah' } },
      },
    },
  };
}

/**
 * A pod named `name` with `rs`'s selector labels in `phase`; Running pods are Ready (since
 * `readySince` when given); `owned` gives it `rs` as controller.
 */
export function newPod(name: string, rs: ReplicaSet, phase: string, readySince?: string, owned = false): Pod {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      uid: randomUUID(),
      name,
      namespace: rs.metadata.namespace,
      labels: { ...(rs.spec?.selector?.matchLabels ?? {}) },
    },
    spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
    status: { phase: phase as 'Running' },
  };
  if (phase === 'Running')
    pod.status!.conditions = [
      readySince
        ? { type: 'Ready', status: 'True', lastTransitionTime: readySince }
        : { type: 'Ready', status: 'True' },
    ];
  if (owned)
    pod.metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: rs.metadata.name ?? '',
        uid: rs.metadata.uid ?? '',
        controller: true,
      },
    ];
  return pod;
}

/** `count` pods `<prefix><i>` owned by `rs` with `labels`, in `phase`. */
export function newPodList(
  count: number,
  phase: string,
  labels: Record<string, string>,
  rs: ReplicaSet,
  prefix = 'pod',
) {
  return Array.from({ length: count }, (_, i) => {
    const pod = newPod(`${prefix}${i}`, rs, phase, undefined, true);
    pod.metadata.labels = { ...labels };
    return pod;
  });
}
