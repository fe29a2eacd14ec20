/**
 * A DaemonSet's pods and where they run (upstream 1.33 pkg/controller/daemon/daemon_controller.go
 * getDaemonPods, getNodesToDaemonPods, podByCreationTimestampAndPhase, getUnscheduledPodsWithoutNode;
 * metav1.NewControllerRef): the namespace's pods claimed as upstream's ControllerRefManager does,
 * grouped by the node each runs on or is pinned to.
 */
import { labelSelectorOf, type LabelSelector, type LabelSelectorObject } from '../../api/label-selector.js';
import type { OwnerReference } from '../../api/object.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { claimPods, recheckDeletionTimestamp } from '../replicaset/claim.js';
import type { Workload } from '../replicaset/workload.js';
import { targetNodeName } from './daemonset-util.js';
import type { DaemonSetClient } from './types.js';

/** The controllerRef of a DaemonSet's pods and revisions (upstream NewControllerRef). */
export function daemonSetRef(ds: DaemonSet): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    name: ds.metadata.name ?? '',
    uid: ds.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The DaemonSet's selector (throws SelectorParseError); null selects nothing. */
export function selectorOf(ds: DaemonSet): LabelSelector | null {
  const sel = ds.spec?.selector as LabelSelectorObject | null | undefined;
  return sel ? labelSelectorOf(sel) : null;
}

/**
 * Upstream getDaemonPods: every pod of the namespace the DaemonSet controls after claiming
 * (orphans matching its selector adopted, owned ones no longer matching released). Throws the
 * selector's parse error or the claim's aggregate error.
 */
export async function getDaemonPods(ds: DaemonSet, client: DaemonSetClient): Promise<Pod[]> {
  const ns = ds.metadata.namespace ?? '';
  const owner = ds as unknown as Workload; // claimPods reads only the owner's metadata
  return claimPods(owner, selectorOf(ds), daemonSetRef(ds), await client.listPods(ns), client, () =>
    recheckDeletionTimestamp(
      owner,
      'DaemonSet',
      async () => (await client.getDaemonSetFresh(ns, ds.metadata.name ?? '')) as unknown as Workload,
    ),
  );
}

/** Upstream podutil.IsPodTerminal: Succeeded or Failed. */
export const isPodTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/**
 * Upstream getNodesToDaemonPods's grouping: `pods` by the node each runs on or is pinned to;
 * terminal pods being deleted are left out unless `includeDeletedTerminal`; a pod naming no
 * node is skipped.
 */
export function nodesToDaemonPods(pods: readonly Pod[], includeDeletedTerminal = false): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (!includeDeletedTerminal && isPodTerminal(pod) && pod.metadata.deletionTimestamp) continue;
    let node: string;
    try {
      node = targetNodeName(pod);
    } catch {
      continue;
    }
    const list = out.get(node);
    if (list) list.push(pod);
    else out.set(node, [pod]);
  }
  return out;
}

const created = (pod: Pod) => Date.parse(pod.metadata.creationTimestamp ?? '') || 0;

/** Upstream podByCreationTimestampAndPhase: scheduled pods first, then oldest first, then by name. */
export function byCreationTimestampAndPhase(a: Pod, b: Pod): number {
  const [sa, sb] = [Boolean(a.spec?.nodeName), Boolean(b.spec?.nodeName)];
  if (sa !== sb) return sa ? -1 : 1;
  const [ta, tb] = [created(a), created(b)];
  if (ta === tb) {
    const [na, nb] = [a.metadata.name ?? '', b.metadata.name ?? ''];
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  return ta - tb;
}

/**
 * Upstream getUnscheduledPodsWithoutNode: names of unscheduled pods pinned to nodes that do not
 * exist (the pod GC never deletes those, so the controller does).
 */
export function unscheduledPodsWithoutNode(
  nodes: readonly Node[],
  byNode: ReadonlyMap<string, readonly Pod[]>,
): string[] {
  const known = new Set(nodes.map((n) => n.metadata.name ?? ''));
  const out: string[] = [];
  for (const [node, pods] of byNode) {
    if (known.has(node)) continue;
    for (const pod of pods) if (!pod.spec?.nodeName) out.push(pod.metadata.name ?? '');
  }
  return out;
}
