/**
 * One sync of one Deployment (upstream pkg/controller/deployment/deployment_controller.go
 * syncDeployment), given its claimed ReplicaSets and their pods: a Deployment selecting
 * everything only has its generation observed; one being deleted only has its status kept;
 * then paused conditions, a paused Deployment only scaled, a pending legacy rollback done,
 * a scaling event carried out, else the strategy's rollout.
 */
import { isEmptySelector } from '../../resources/apps-common/label-selector.js';
import { rolloutRecreate, type PodMap } from './recreate.js';
import { rollback } from './rollback.js';
import { rolloutRolling } from './rolling.js';
import { checkPausedConditions, getRollbackTo, isScalingEvent, sync, syncStatusOnly } from './sync.js';
import type { Deployment, ReplicaSet, SyncContext } from './types.js';

/** syncDeployment on a copy of `deployment`. Throws what the client throws (the sync is retried). */
export async function syncDeployment(
  ctx: SyncContext,
  deployment: Deployment,
  rsList: readonly ReplicaSet[],
  podMap: PodMap,
): Promise<void> {
  const d = structuredClone(deployment);
  if (isEmptySelector(d.spec?.selector ?? {})) {
    ctx.client.event(
      d,
      'Warning',
      'SelectingAll',
      'This deployment is selecting all pods. A non-empty selector is required.',
    );
    if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
      d.status = { ...d.status, observedGeneration: d.metadata.generation };
      await ctx.client.updateDeploymentStatus(d);
    }
    return;
  }
  if (d.metadata.deletionTimestamp) return syncStatusOnly(ctx, d, rsList);
  await checkPausedConditions(ctx, d);
  if (d.spec?.paused) return sync(ctx, d, rsList);
  if (getRollbackTo(d) !== undefined) return rollback(ctx, d, rsList);
  if (await isScalingEvent(ctx, d, rsList)) return sync(ctx, d, rsList);
  switch (d.spec?.strategy?.type) {
    case 'Recreate':
      return rolloutRecreate(ctx, d, rsList, podMap);
    case 'RollingUpdate':
      return rolloutRolling(ctx, d, rsList);
    default:
      return undefined;
  }
}
