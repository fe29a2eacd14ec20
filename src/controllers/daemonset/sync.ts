/**
 * One sync of a DaemonSet (upstream 1.33 pkg/controller/daemon/daemon_controller.go
 * syncDaemonSet, updateDaemonSet, manage, podsShouldBeOnNode, syncNodes): build the revision
 * history, then — when the expectations of earlier creations and deletions are met — create a
 * pod for each eligible node without one, delete pods on nodes no longer eligible, surplus pods
 * on a node and failed or succeeded pods (failed ones with back-off), run the rolling update,
 * prune history, and write the status. Pods are created without a node, pinned to theirs by a
 * required node affinity on `metadata.name`; the scheduler binds them.
 */
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { isPodAvailable, isPodReady } from '../replicaset/pod-ranking.js';
import { allowsSurge, CONTROLLER_REVISION_HASH } from './daemonset-util.js';
import { FailedPodsBackoff } from './failed-pods-backoff.js';
import { cleanupHistory, constructHistory } from './history.js';
import { nodeShouldRunDaemonPod } from './node-should-run.js';
import { byCreationTimestampAndPhase, getDaemonPods, nodesToDaemonPods, unscheduledPodsWithoutNode } from './pods.js';
import { rollingUpdate } from './rolling-update.js';
import { updateDaemonSetStatus } from './status.js';
import { syncNodes } from './sync-nodes.js';
import type { SyncDeps } from './types.js';

const keyOf = (ds: DaemonSet) => `${ds.metadata.namespace ?? ''}/${ds.metadata.name ?? ''}`;

/** Whether both kinds of expectations of `key` are met (upstream SatisfiedExpectations). */
export const satisfied = (deps: SyncDeps, key: string): boolean =>
  deps.creations.satisfied(key) && deps.deletions.satisfied(key);

/** A selector with no requirements at all (upstream compares with an empty metav1.LabelSelector). */
function selectsEverything(ds: DaemonSet): boolean {
  const sel = ds.spec?.selector;
  if (!sel) return false;
  return !Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length;
}

/**
 * Sync the DaemonSet `namespace/name`. Throws the first error of the pod writes (after the
 * status is written) or of a read, the history or the status write, for the queue's back-off.
 */
export async function syncDaemonSet(namespace: string, name: string, deps: SyncDeps): Promise<void> {
  const { client } = deps;
  const key = `${namespace}/${name}`;
  const ds = await client.getDaemonSet(namespace, name);
  if (!ds) {
    deps.creations.delete(key);
    deps.deletions.delete(key);
    return;
  }
  const nodes = await client.listNodes();
  if (selectsEverything(ds)) {
    client.event(
      ds,
      'Warning',
      'SelectingAll',
      'This daemon set is selecting all pods. A non-empty selector is required.',
    );
    return;
  }
  // Its history may be gone already: no status for a DaemonSet being deleted (as upstream).
  if (ds.metadata.deletionTimestamp) return;
  const { cur, old } = await constructHistory(ds, client, () => getDaemonPods(ds, client));
  const hash = cur.metadata.labels?.[CONTROLLER_REVISION_HASH] ?? '';
  if (!satisfied(deps, key)) return updateDaemonSetStatus(ds, nodes, hash, false, deps);
  let failure: unknown;
  try {
    await manage(ds, nodes, hash, deps);
    if (satisfied(deps, key) && ds.spec?.updateStrategy?.type === 'RollingUpdate')
      await rollingUpdate(ds, nodes, hash, deps);
    await cleanupHistory(ds, old, await getDaemonPods(ds, client), client);
  } catch (err) {
    failure = err;
  }
  try {
    await updateDaemonSetStatus(ds, nodes, hash, true, deps);
  } catch (err) {
    failure ??= err;
  }
  if (failure !== undefined) throw failure;
}

/** Upstream manage: create and delete pods so each eligible node runs one. */
async function manage(ds: DaemonSet, nodes: readonly Node[], hash: string, deps: SyncDeps): Promise<void> {
  const byNode = nodesToDaemonPods(await getDaemonPods(ds, deps.client));
  const create: string[] = [];
  const remove: string[] = [];
  for (const node of nodes) {
    const plan = podsShouldBeOnNode(node, byNode, ds, hash, deps);
    create.push(...plan.create);
    remove.push(...plan.remove);
  }
  remove.push(...unscheduledPodsWithoutNode(nodes, byNode));
  await syncNodes(ds, remove, create, hash, deps);
}

/**
 * Upstream podsShouldBeOnNode: the node needing a pod (a list of at most its name) and the pods
 * on it to delete. Records FailedDaemonPod / SucceededDaemonPod Events; a failed pod within its
 * back-off is kept, and the DaemonSet queued for when the back-off ends.
 */
export function podsShouldBeOnNode(
  node: Node,
  byNode: ReadonlyMap<string, readonly Pod[]>,
  ds: DaemonSet,
  hash: string,
  deps: SyncDeps,
): { create: string[]; remove: string[] } {
  const name = node.metadata.name ?? '';
  const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
  const pods = byNode.get(name);
  const create: string[] = [];
  const remove: string[] = [];
  const now = deps.now?.() ?? Date.now();
  if (shouldRun && !pods) return { create: [name], remove };
  if (!shouldContinueRunning) {
    for (const pod of pods ?? []) if (!pod.metadata.deletionTimestamp) remove.push(pod.metadata.name ?? '');
    return { create, remove };
  }
  const running: Pod[] = [];
  for (const pod of pods ?? []) {
    if (pod.metadata.deletionTimestamp) continue;
    const where = `${pod.metadata.namespace}/${pod.metadata.name} on node ${name}`;
    if (pod.status?.phase === 'Failed') {
      const key = FailedPodsBackoff.key(ds.metadata.uid ?? '', ds.status?.observedGeneration ?? 0, name);
      if (deps.backoff.isInBackOffSinceUpdate(key, now)) {
        deps.enqueueAfter(keyOf(ds), deps.backoff.get(key));
        continue;
      }
      deps.backoff.next(key, now);
      deps.client.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${where}, will try to kill it`);
      remove.push(pod.metadata.name ?? '');
    } else if (pod.status?.phase === 'Succeeded') {
      deps.client.event(
        ds,
        'Normal',
        'SucceededDaemonPod',
        `Found succeeded daemon pod ${where}, will try to delete it`,
      );
      remove.push(pod.metadata.name ?? '');
    } else running.push(pod);
  }
  running.sort(byCreationTimestampAndPhase);
  if (!allowsSurge(ds)) {
    // One pod per node: keep the oldest.
    remove.push(...running.slice(1).map((p) => p.metadata.name ?? ''));
    return { create, remove };
  }
  if (running.length <= 1) {
    if (!running.length && shouldRun) create.push(name);
    return { create, remove };
  }
  // Surging: an old pod and a new one may both run while the new one is not yet available.
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    const isNew = pod.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash;
    if (isNew && !oldestNew) oldestNew = pod;
    else if (!isNew && !oldestOld) oldestOld = pod;
    else remove.push(pod.metadata.name ?? '');
  }
  if (oldestNew && oldestOld) {
    if (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, now))
      remove.push(oldestOld.metadata.name ?? '');
  }
  return { create, remove };
}
