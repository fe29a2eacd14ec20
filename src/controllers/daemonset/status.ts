/**
 * A DaemonSet's status (upstream 1.33 pkg/controller/daemon/daemon_controller.go
 * updateDaemonSetStatus, storeDaemonSetStatus): per node that should run the pod, whether one
 * is scheduled there and whether the oldest is ready, available (ready for minReadySeconds) and
 * of the current revision; pods on nodes that should not run it are misscheduled. Written
 * through `/status` only when a count or the observed generation changes.
 */
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { isPodAvailable, isPodReady } from '../replicaset/pod-ranking.js';
import { isPodUpdated, templateGeneration } from './daemonset-util.js';
import { nodeShouldRunDaemonPod } from './node-should-run.js';
import { byCreationTimestampAndPhase, getDaemonPods, nodesToDaemonPods } from './pods.js';
import type { DaemonSetStatus, SyncDeps } from './types.js';

/** The counts of status (upstream's seven numbers). */
export type DaemonSetCounts = Required<
  Pick<
    DaemonSetStatus,
    | 'desiredNumberScheduled'
    | 'currentNumberScheduled'
    | 'numberMisscheduled'
    | 'numberReady'
    | 'updatedNumberScheduled'
    | 'numberAvailable'
    | 'numberUnavailable'
  >
>;

/** The counts for `ds` over `nodes` with its pods grouped by node, at `now` (ms). */
export function calculateCounts(
  ds: DaemonSet,
  nodes: readonly Node[],
  byNode: ReadonlyMap<string, readonly Pod[]>,
  hash: string,
  now: number,
): DaemonSetCounts {
  const c = {
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
  };
  const generation = templateGeneration(ds);
  for (const node of nodes) {
    const pods = byNode.get(node.metadata.name ?? '') ?? [];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (pods.length) c.numberMisscheduled++;
      continue;
    }
    c.desiredNumberScheduled++;
    if (!pods.length) continue;
    c.currentNumberScheduled++;
    const pod = [...pods].sort(byCreationTimestampAndPhase)[0];
    if (isPodReady(pod)) {
      c.numberReady++;
      if (isPodAvailable(pod, ds.spec?.minReadySeconds ?? 0, now)) c.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) c.updatedNumberScheduled++;
  }
  c.numberUnavailable = c.desiredNumberScheduled - c.numberAvailable;
  return c;
}

/** Upstream storeDaemonSetStatus's check: every count equal and the generation observed. */
export function statusUpToDate(ds: DaemonSet, counts: DaemonSetCounts): boolean {
  const st = ds.status ?? {};
  const same = (Object.keys(counts) as (keyof DaemonSetCounts)[]).every((k) => (st[k] ?? 0) === counts[k]);
  return same && (st.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0);
}

/**
 * Upstream updateDaemonSetStatus: compute and store the status (observedGeneration raised to
 * the DaemonSet's generation when `updateObservedGen`), and queue the DaemonSet again after
 * minReadySeconds while some ready pod is not yet available. Throws ApiError of the write.
 */
export async function updateDaemonSetStatus(
  ds: DaemonSet,
  nodes: readonly Node[],
  hash: string,
  updateObservedGen: boolean,
  deps: SyncDeps,
): Promise<void> {
  const byNode = nodesToDaemonPods(await getDaemonPods(ds, deps.client));
  const counts = calculateCounts(ds, nodes, byNode, hash, deps.now?.() ?? Date.now());
  if (!statusUpToDate(ds, counts)) {
    const observedGeneration = updateObservedGen ? (ds.metadata.generation ?? 0) : (ds.status?.observedGeneration ?? 0);
    await deps.client.writeStatus(ds, { ...counts, observedGeneration });
  }
  const minReady = ds.spec?.minReadySeconds ?? 0;
  if (minReady > 0 && counts.numberReady !== counts.numberAvailable)
    deps.enqueueAfter(`${ds.metadata.namespace}/${ds.metadata.name}`, minReady * 1000);
}
