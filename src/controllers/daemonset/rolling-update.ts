/**
 * The RollingUpdate strategy (upstream 1.33 pkg/controller/daemon/update.go rollingUpdate,
 * findUpdatedPodsOnNode, updatedDesiredNodeCounts). Without surge, old pods are deleted while
 * fewer than maxUnavailable nodes lack an available pod (unavailable old pods always), and
 * manage() creates their replacements. With maxSurge, a new pod is created beside an old one on
 * at most maxSurge nodes at a time (at once where the old pod is unavailable), and the old pod
 * is deleted when the new one is available.
 */
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { isPodAvailable } from '../replicaset/pod-ranking.js';
import { isPodUpdated, surgeCount, templateGeneration, unavailableCount } from './daemonset-util.js';
import { nodeShouldRunDaemonPod } from './node-should-run.js';
import { getDaemonPods, nodesToDaemonPods } from './pods.js';
import { syncNodes } from './sync-nodes.js';
import type { SyncDeps } from './types.js';

/**
 * Upstream findUpdatedPodsOnNode: the node's one new and one old pod (not terminating);
 * undefined when it has more than one of either (manage() prunes those first).
 */
export function findUpdatedPodsOnNode(
  ds: DaemonSet,
  pods: readonly Pod[],
  hash: string,
): { newPod?: Pod; oldPod?: Pod } | undefined {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  const generation = templateGeneration(ds);
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { newPod, oldPod };
}

/**
 * Upstream updatedDesiredNodeCounts: maxSurge and maxUnavailable scaled to the number of nodes
 * that should run the pod (both 0 means maxUnavailable 1), and that number; every such node
 * gets an entry in `byNode`. Throws Error for a malformed value.
 */
export function updatedDesiredNodeCounts(
  ds: DaemonSet,
  nodes: readonly Node[],
  byNode: Map<string, Pod[]>,
): { maxSurge: number; maxUnavailable: number; desired: number } {
  let desired = 0;
  for (const node of nodes) {
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desired++;
    const name = node.metadata.name ?? '';
    if (!byNode.has(name)) byNode.set(name, []);
  }
  let maxUnavailable: number;
  let maxSurge: number;
  try {
    maxUnavailable = unavailableCount(ds, desired);
  } catch (err) {
    throw new Error(`couldn't get unavailable numbers: invalid value for MaxUnavailable: ${(err as Error).message}`, {
      cause: err,
    });
  }
  try {
    maxSurge = surgeCount(ds, desired);
  } catch (err) {
    throw new Error(`couldn't get unavailable numbers: invalid value for MaxSurge: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired };
}

/** Upstream rollingUpdate: the old pods to delete or the nodes to surge onto, then syncNodes. */
export async function rollingUpdate(
  ds: DaemonSet,
  nodes: readonly Node[],
  hash: string,
  deps: SyncDeps,
): Promise<void> {
  const byNode = nodesToDaemonPods(await getDaemonPods(ds, deps.client));
  const { maxSurge, maxUnavailable, desired } = updatedDesiredNodeCounts(ds, nodes, byNode);
  const now = deps.now?.() ?? Date.now();
  const available = (pod: Pod) => isPodAvailable(pod, ds.spec?.minReadySeconds ?? 0, now);
  const name = (pod: Pod) => pod.metadata.name ?? '';
  if (maxSurge === 0) {
    let numUnavailable = 0;
    const replacements: string[] = [];
    const candidates: string[] = [];
    for (const pods of byNode.values()) {
      const found = findUpdatedPodsOnNode(ds, pods, hash);
      if (!found) {
        numUnavailable++; // manage() prunes the excess first
        continue;
      }
      const { newPod, oldPod } = found;
      if (!oldPod) {
        if (!newPod || !available(newPod)) numUnavailable++;
      } else if (newPod) numUnavailable++;
      else if (!available(oldPod)) {
        replacements.push(name(oldPod));
        numUnavailable++;
      } else if (numUnavailable < maxUnavailable) candidates.push(name(oldPod));
    }
    const room = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
    return syncNodes(ds, [...replacements, ...candidates.slice(0, room)], [], hash, deps);
  }
  const nodeByName = new Map(nodes.map((n) => [n.metadata.name ?? '', n]));
  const shouldRun = (nodeName: string) => {
    const node = nodeByName.get(nodeName);
    if (!node) throw new Error(`couldn't get node for nodeName ${JSON.stringify(nodeName)}: node not found`);
    return nodeShouldRunDaemonPod(node, ds).shouldRun;
  };
  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: string[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of byNode) {
    const found = findUpdatedPodsOnNode(ds, pods, hash);
    if (!found) {
      numSurge++;
      continue;
    }
    const { newPod, oldPod } = found;
    const counted = oldPod ?? newPod;
    if (counted && available(counted)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) {
        if (!shouldRun(nodeName)) oldPodsToDelete.push(name(oldPod));
        else allowedNewNodes.push(nodeName);
      } else if (!shouldRun(nodeName)) shouldNotRunPodsToDelete.push(name(oldPod));
      else if (numSurge < maxSurge) candidateNewNodes.push(nodeName);
      continue;
    }
    if (!available(newPod)) numSurge++;
    else oldPodsToDelete.push(name(oldPod));
  }
  // Pods on nodes that no longer qualify go only once as many pods elsewhere are available.
  const deletable = Math.min(Math.max(0, numAvailable - desired), shouldNotRunPodsToDelete.length);
  oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
  const room = Math.min(Math.max(0, maxSurge - numSurge), candidateNewNodes.length);
  return syncNodes(ds, oldPodsToDelete, [...allowedNewNodes, ...candidateNewNodes.slice(0, room)], hash, deps);
}
