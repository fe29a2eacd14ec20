/**
 * The Recreate strategy (upstream pkg/controller/deployment/recreate.go): scale every old
 * ReplicaSet to 0, wait until no old pod is left running, then create (or scale up) the new
 * ReplicaSet to the full count.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import { deploymentComplete } from './conditions.js';
import { replicaSetsAndSyncRevision } from './new-replica-set.js';
import { syncRolloutStatus } from './progress.js';
import { activeReplicaSets, actualReplicaCount } from './replica-sets.js';
import { cleanupDeployment, scaleReplicaSetTo } from './sync.js';
import { specReplicas, type Deployment, type ReplicaSet, type SyncContext } from './types.js';

/** The Deployment's pods by the uid of the ReplicaSet that controls them (upstream getPodMapForDeployment). */
export type PodMap = ReadonlyMap<string, readonly Pod[]>;

/** rolloutRecreate. Throws what the client throws. */
export async function rolloutRecreate(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  podMap: PodMap,
): Promise<void> {
  let { newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, false);
  let allRSs = [...oldRSs, newRS];
  const scaledDown = await scaleDownOldReplicaSetsForRecreate(ctx, activeReplicaSets(oldRSs), d);
  if (scaledDown || oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(ctx, allRSs, newRS, d);
  if (!newRS) {
    ({ newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, true));
    allRSs = [...oldRSs, newRS];
  }
  if (newRS) await scaleReplicaSetTo(ctx, newRS, specReplicas(d), d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(ctx, oldRSs, d);
  return syncRolloutStatus(ctx, allRSs, newRS, d);
}

/** scaleDownOldReplicaSetsForRecreate: every old ReplicaSet to 0; true when any was scaled. */
export async function scaleDownOldReplicaSetsForRecreate(
  ctx: SyncContext,
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): Promise<boolean> {
  let scaled = false;
  for (const rs of oldRSs) {
    if (specReplicas(rs) === 0) continue;
    if ((await scaleReplicaSetTo(ctx, rs, 0, d)).scaled) scaled = true;
  }
  return scaled;
}

/** oldPodsRunning: an old ReplicaSet still reports pods, or a pod of one is not Succeeded or Failed. */
export function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[], podMap: PodMap): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS && newRS.metadata.uid === uid) continue;
    if (pods.some((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded')) return true;
  }
  return false;
}
