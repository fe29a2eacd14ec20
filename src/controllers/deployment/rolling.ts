/**
 * The RollingUpdate strategy (upstream pkg/controller/deployment/rolling.go): scale the new
 * ReplicaSet up as far as maxSurge allows, else scale old ones down as far as maxUnavailable
 * allows (unhealthy replicas first), then clean history once complete and report progress.
 */
import { deploymentComplete } from './conditions.js';
import { replicaSetsAndSyncRevision } from './new-replica-set.js';
import { syncRolloutStatus } from './progress.js';
import { activeReplicaSets, availableReplicaCount, byCreation, replicaCount } from './replica-sets.js';
import { maxUnavailable, newRSNewReplicas } from './replicas.js';
import { cleanupDeployment, scaleReplicaSetTo } from './sync.js';
import { specReplicas, type Deployment, type ReplicaSet, type SyncContext } from './types.js';

/** rolloutRolling. Throws what the client throws. */
export async function rolloutRolling(ctx: SyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, true);
  const rs = newRS!;
  const allRSs = [...oldRSs, rs];
  if (await reconcileNewReplicaSet(ctx, allRSs, rs, d)) return syncRolloutStatus(ctx, allRSs, rs, d);
  if (await reconcileOldReplicaSets(ctx, allRSs, activeReplicaSets(oldRSs), rs, d))
    return syncRolloutStatus(ctx, allRSs, rs, d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(ctx, oldRSs, d);
  return syncRolloutStatus(ctx, allRSs, rs, d);
}

/** reconcileNewReplicaSet: the new ReplicaSet down to the desired count, or up by NewRSNewReplicas; true when scaled. */
export async function reconcileNewReplicaSet(
  ctx: SyncContext,
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  const want = specReplicas(d);
  if (specReplicas(newRS) === want) return false;
  if (specReplicas(newRS) > want) return (await scaleReplicaSetTo(ctx, newRS, want, d)).scaled;
  return (await scaleReplicaSetTo(ctx, newRS, newRSNewReplicas(d, allRSs, newRS), d)).scaled;
}

/**
 * reconcileOldReplicaSets: scale old ReplicaSets down by at most
 * all − (desired − maxUnavailable) − the new ReplicaSet's unavailable pods, unhealthy replicas
 * first; true when anything was scaled down.
 */
export async function reconcileOldReplicaSets(
  ctx: SyncContext,
  allRSs: readonly ReplicaSet[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  if (replicaCount(oldRSs) === 0) return false;
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const newUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = replicaCount(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  const cleaned = await cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown);
  const scaledDown = await scaleDownOldReplicaSetsForRollingUpdate(ctx, [...cleaned.oldRSs, newRS], cleaned.oldRSs, d);
  return cleaned.count + scaledDown > 0;
}

/**
 * cleanupUnhealthyReplicas: oldest first, scale each old ReplicaSet down by its unavailable
 * replicas, `maxCleanup` in all. Returns the ReplicaSets as updated and the count removed.
 */
export async function cleanupUnhealthyReplicas(
  ctx: SyncContext,
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
  maxCleanup: number,
): Promise<{ oldRSs: ReplicaSet[]; count: number }> {
  const sorted = [...oldRSs].sort(byCreation);
  let total = 0;
  for (const [i, rs] of sorted.entries()) {
    if (total >= maxCleanup) break;
    const available = rs.status?.availableReplicas ?? 0;
    if (specReplicas(rs) === 0 || specReplicas(rs) === available) continue;
    const down = Math.min(maxCleanup - total, specReplicas(rs) - available);
    const size = specReplicas(rs) - down;
    if (size > specReplicas(rs))
      throw new Error(
        `when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata.namespace}/${rs.metadata.name} ${specReplicas(rs)} -> ${size}`,
      );
    sorted[i] = (await scaleReplicaSetTo(ctx, rs, size, d)).rs;
    total += down;
  }
  return { oldRSs: sorted, count: total };
}

/**
 * scaleDownOldReplicaSetsForRollingUpdate: oldest first, remove available replicas above
 * desired − maxUnavailable. Returns the count removed.
 */
export async function scaleDownOldReplicaSetsForRollingUpdate(
  ctx: SyncContext,
  allRSs: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): Promise<number> {
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const available = availableReplicaCount(allRSs);
  if (available <= minAvailable) return 0;
  const target = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= target) break;
    if (specReplicas(rs) === 0) continue;
    const down = Math.min(specReplicas(rs), target - total);
    await scaleReplicaSetTo(ctx, rs, specReplicas(rs) - down, d);
    total += down;
  }
  return total;
}
