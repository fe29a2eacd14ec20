/**
 * Which nodes a DaemonSet's pod belongs on (upstream 1.33 pkg/controller/daemon/
 * daemon_controller.go NodeShouldRunDaemonPod, predicates, NewPod): the pod the DaemonSet would
 * make for the node (its template with the daemon tolerations) must fit the node's name, the
 * template's nodeSelector and required node affinity, and tolerate the node's NoSchedule and
 * NoExecute taints. The matching rules are the scheduler's own (scheduler/framework.ts), so a
 * node the controller picks is one the scheduler accepts for these checks.
 */
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { anyTolerates, matchesRequiredNodeAffinity } from '../scheduler/framework.js';
import { addOrUpdateDaemonPodTolerations } from './daemonset-util.js';

/** What a node means for a DaemonSet. */
export interface ShouldRun {
  /** A daemon pod should be created on the node when it has none. */
  readonly shouldRun: boolean;
  /** A daemon pod already on the node may stay (it tolerates the NoExecute taints). */
  readonly shouldContinueRunning: boolean;
}

/**
 * Upstream NewPod: the DaemonSet's pod for `nodeName` (template metadata and spec, the
 * namespace, spec.nodeName set, the daemon tolerations added). Not written anywhere: the
 * eligibility checks read it.
 */
export function newPod(ds: DaemonSet, nodeName: string): Pod {
  const template = ds.spec?.template;
  const spec = addOrUpdateDaemonPodTolerations({ ...((template?.spec ?? {}) as NonNullable<Pod['spec']>), nodeName });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...(template?.metadata ?? {}), namespace: ds.metadata.namespace },
    spec,
  } as Pod;
}

type Taint = NonNullable<NonNullable<Node['spec']>['taints']>[number];

/** Upstream FindMatchingUntoleratedTaint: whether a taint passing `filter` is not tolerated. */
function hasUntoleratedTaint(taints: readonly Taint[], pod: Pod, filter: (t: Taint) => boolean): boolean {
  return taints.some((t) => filter(t) && !anyTolerates(pod.spec?.tolerations, t));
}

/**
 * Upstream NodeShouldRunDaemonPod. A template naming another node, a node name or node affinity
 * (nodeSelector included) that does not fit: neither. An untolerated NoSchedule or NoExecute
 * taint: no new pod, and an existing one continues only if every NoExecute taint is tolerated.
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): ShouldRun {
  const name = node.metadata.name ?? '';
  const templateNode = ds.spec?.template?.spec?.nodeName;
  if (templateNode && templateNode !== name) return { shouldRun: false, shouldContinueRunning: false };
  const pod = newPod(ds, name);
  if (!matchesRequiredNodeAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  if (hasUntoleratedTaint(taints, pod, (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule')) {
    const evicted = hasUntoleratedTaint(taints, pod, (t) => t.effect === 'NoExecute');
    return { shouldRun: false, shouldContinueRunning: !evicted };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}
