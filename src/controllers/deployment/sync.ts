/**
 * Scaling, history cleanup and status (upstream pkg/controller/deployment/sync.go: sync,
 * syncStatusOnly, checkPausedConditions, isScalingEvent, scale (proportional scaling of a
 * rolling Deployment resized mid-rollout), scaleReplicaSet(AndRecordEvent), cleanupDeployment,
 * calculateStatus, syncDeploymentStatus).
 */
import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../../errors/api-error.js';
import {
  getCondition,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  newCondition,
  setCondition,
} from './conditions.js';
import { replicaSetsAndSyncRevision } from './new-replica-set.js';
import {
  activeReplicaSets,
  actualReplicaCount,
  availableReplicaCount,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  findActiveOrLatest,
  readyReplicaCount,
  replicaCount,
} from './replica-sets.js';
import { isRollingUpdate, isSaturated, maxSurge, maxUnavailable, proportion } from './replicas.js';
import { desiredReplicasAnnotation, replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './revisions.js';
import {
  Reason,
  ROLLBACK_TO_ANNOTATION,
  specReplicas,
  type Deployment,
  type DeploymentStatus,
  type ReplicaSet,
  type SyncContext,
} from './types.js';

type MaybeRS = ReplicaSet | null | undefined;

/** scaleReplicaSet: set `rs` to `size` and the replicas annotations; `scaled` when the size changed. */
export async function scaleReplicaSet(
  ctx: SyncContext,
  rs: ReplicaSet,
  size: number,
  d: Deployment,
  operation: string,
): Promise<{ scaled: boolean; rs: ReplicaSet }> {
  const max = specReplicas(d) + maxSurge(d);
  const sizeChanges = specReplicas(rs) !== size;
  if (!sizeChanges && !replicasAnnotationsNeedUpdate(rs, specReplicas(d), max)) return { scaled: false, rs };
  const old = specReplicas(rs);
  const copy = structuredClone(rs);
  copy.spec = { ...copy.spec, replicas: size };
  setReplicasAnnotations(copy, specReplicas(d), max);
  const updated = await ctx.client.updateReplicaSet(copy);
  if (sizeChanges)
    ctx.client.event(
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${operation} replica set ${updated.metadata.name} from ${old} to ${size}`,
    );
  return { scaled: sizeChanges, rs: updated };
}

/** scaleReplicaSetAndRecordEvent: nothing when `rs` has `size` already. */
export async function scaleReplicaSetTo(
  ctx: SyncContext,
  rs: ReplicaSet,
  size: number,
  d: Deployment,
): Promise<{ scaled: boolean; rs: ReplicaSet }> {
  if (specReplicas(rs) === size) return { scaled: false, rs };
  return scaleReplicaSet(ctx, rs, size, d, specReplicas(rs) < size ? 'up' : 'down');
}

/**
 * scale: a resize of the Deployment carried to its ReplicaSets. One active (or, with none, the
 * latest) ReplicaSet takes the whole count; a saturated new one leaves the old ones at 0; a
 * rolling Deployment with several active ones spreads the change in proportion to each one's
 * size (by the max-replicas annotation), leftovers to the largest.
 */
export async function scale(ctx: SyncContext, d: Deployment, newRS: MaybeRS, oldRSs: ReplicaSet[]): Promise<void> {
  const want = specReplicas(d);
  const one = findActiveOrLatest(newRS, oldRSs);
  if (one) {
    if (specReplicas(one) !== want) await scaleReplicaSetTo(ctx, one, want, d);
    return;
  }
  if (isSaturated(d, newRS)) {
    for (const old of activeReplicaSets(oldRSs)) await scaleReplicaSetTo(ctx, old, 0, d);
    return;
  }
  if (!isRollingUpdate(d)) return;
  let all = activeReplicaSets([...oldRSs, newRS]);
  const allowed = want > 0 ? want + maxSurge(d) : 0;
  const toAdd = allowed - replicaCount(all);
  let operation = '';
  if (toAdd > 0) [all, operation] = [[...all].sort(bySizeNewer), 'up'];
  else if (toAdd < 0) [all, operation] = [[...all].sort(bySizeOlder), 'down'];
  let added = 0;
  const sizes = new Map<string, number>();
  for (const rs of all) {
    if (toAdd === 0) sizes.set(rs.metadata.name ?? '', specReplicas(rs));
    else {
      const p = proportion(rs, d, toAdd, added);
      sizes.set(rs.metadata.name ?? '', specReplicas(rs) + p);
      added += p;
    }
  }
  for (const [i, rs] of all.entries()) {
    const name = rs.metadata.name ?? '';
    if (i === 0 && toAdd !== 0) sizes.set(name, Math.max(0, sizes.get(name)! + toAdd - added));
    await scaleReplicaSet(ctx, rs, sizes.get(name)!, d, operation);
  }
}

/**
 * cleanupDeployment: delete the oldest old ReplicaSets beyond revisionHistoryLimit, only those
 * scaled to 0 with no pods left, their generation observed, not already being deleted.
 */
export async function cleanupDeployment(ctx: SyncContext, oldRSs: readonly ReplicaSet[], d: Deployment): Promise<void> {
  if (!hasRevisionHistoryLimit(d)) return;
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
  const diff = cleanable.length - (d.spec?.revisionHistoryLimit ?? 0);
  for (const rs of cleanable.slice(0, Math.max(0, diff))) {
    if ((rs.status?.replicas ?? 0) !== 0 || specReplicas(rs) !== 0) continue;
    if ((rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
    try {
      await ctx.client.deleteReplicaSet(rs.metadata.namespace ?? '', rs.metadata.name ?? '');
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }
}

/** calculateStatus: counts from the ReplicaSets, the stored conditions, Available from minimum availability. */
export function calculateStatus(
  allRSs: readonly MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
  now: Date,
): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, replicaCount(allRSs) - available),
    ...(d.status?.collisionCount !== undefined && d.status.collisionCount !== null
      ? { collisionCount: d.status.collisionCount }
      : {}),
    conditions: [...(d.status?.conditions ?? [])],
  };
  if (available >= specReplicas(d) - maxUnavailable(d))
    setCondition(
      status,
      newCondition('Available', 'True', Reason.MinimumReplicasAvailable, 'Deployment has minimum availability.', now),
    );
  else
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        Reason.MinimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  return status;
}

/** Status as written and compared: zero counts and an empty condition list are absent (Go's omitempty). */
export function normalStatus(s: DeploymentStatus | null | undefined): DeploymentStatus {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s ?? {})) {
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    if (v === 0 && k !== 'collisionCount') continue;
    out[k] = v;
  }
  return out as DeploymentStatus;
}

/** Write `status` unless it equals the stored one. */
export async function writeStatus(ctx: SyncContext, d: Deployment, status: DeploymentStatus): Promise<boolean> {
  if (isDeepStrictEqual(normalStatus(d.status), normalStatus(status))) return false;
  Object.assign(d, await ctx.client.updateDeploymentStatus({ ...d, status: normalStatus(status) }));
  return true;
}

/** syncDeploymentStatus. */
export async function syncDeploymentStatus(
  ctx: SyncContext,
  allRSs: MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
): Promise<void> {
  await writeStatus(ctx, d, calculateStatus(allRSs, newRS, d, ctx.now()));
}

/** syncStatusOnly: a Deployment being deleted only has its status kept. */
export async function syncStatusOnly(ctx: SyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, false);
  await syncDeploymentStatus(ctx, [...oldRSs, newRS], newRS, d);
}

/** sync: a scaling event or a paused Deployment: scale, clean history (when paused, no rollback pending), status. */
export async function sync(ctx: SyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, false);
  await scale(ctx, d, newRS, oldRSs);
  if (d.spec?.paused && getRollbackTo(d) === undefined) await cleanupDeployment(ctx, oldRSs, d);
  await syncDeploymentStatus(ctx, [...oldRSs, newRS], newRS, d);
}

/** getRollbackTo: the revision of the deprecated rollback annotation, or undefined. */
export function getRollbackTo(d: Deployment): number | undefined {
  const v = d.metadata.annotations?.[ROLLBACK_TO_ANNOTATION];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

/** checkPausedConditions: a Progressing condition of Unknown status saying paused or resumed. */
export async function checkPausedConditions(ctx: SyncContext, d: Deployment): Promise<void> {
  if (!hasProgressDeadline(d)) return;
  const cond = getCondition(d.status, 'Progressing');
  if (cond?.reason === Reason.TimedOut) return;
  const pausedCond = cond?.reason === Reason.PausedDeploy;
  let condition;
  if (d.spec?.paused && !pausedCond)
    condition = newCondition('Progressing', 'Unknown', Reason.PausedDeploy, 'Deployment is paused', ctx.now());
  else if (!d.spec?.paused && pausedCond)
    condition = newCondition('Progressing', 'Unknown', Reason.ResumedDeploy, 'Deployment is resumed', ctx.now());
  if (!condition) return;
  setCondition((d.status ??= {}), condition);
  Object.assign(d, await ctx.client.updateDeploymentStatus(d));
}

/** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
export async function isScalingEvent(ctx: SyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Promise<boolean> {
  const { newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, false);
  return activeReplicaSets([...oldRSs, newRS]).some((rs) => {
    const desired = desiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== specReplicas(d);
  });
}
