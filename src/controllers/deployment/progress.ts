/**
 * Rollout progress (upstream pkg/controller/deployment/progress.go syncRolloutStatus,
 * getReplicaFailures, requeueStuckDeployment): the Progressing condition (NewReplicaSetAvailable
 * once complete, ReplicaSetUpdated while progress is seen, ProgressDeadlineExceeded once
 * progressDeadlineSeconds pass without any), ReplicaFailure carried over from the ReplicaSets,
 * and a requeue for the moment the deadline would pass.
 */
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  fromReplicaSetCondition,
  getCondition,
  hasProgressDeadline,
  newCondition,
  removeCondition,
  setCondition,
} from './conditions.js';
import { calculateStatus, writeStatus } from './sync.js';
import {
  Reason,
  type Deployment,
  type DeploymentCondition,
  type DeploymentStatus,
  type ReplicaSet,
  type SyncContext,
} from './types.js';

type MaybeRS = ReplicaSet | null | undefined;

/** syncRolloutStatus: compute and write the status of a rollout. Throws what the client throws. */
export async function syncRolloutStatus(
  ctx: SyncContext,
  allRSs: MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
): Promise<void> {
  const now = ctx.now();
  const status = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
  const current = getCondition(d.status, 'Progressing');
  const complete = status.replicas === status.updatedReplicas && current?.reason === Reason.NewRSAvailable;
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
  if (hasProgressDeadline(d) && !complete) {
    if (deploymentComplete(d, status)) {
      const msg = `${subject} has successfully progressed.`;
      setCondition(status, newCondition('Progressing', 'True', Reason.NewRSAvailable, msg, now));
    } else if (deploymentProgressing(d, status)) {
      const c = newCondition('Progressing', 'True', Reason.ReplicaSetUpdated, `${subject} is progressing.`, now);
      if (current) {
        if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
        removeCondition(status, 'Progressing');
      }
      setCondition(status, c);
    } else if (deploymentTimedOut(d, status, now)) {
      const msg = `${subject} has timed out progressing.`;
      setCondition(status, newCondition('Progressing', 'False', Reason.TimedOut, msg, now));
    }
  }
  const failures = replicaFailures(allRSs, newRS);
  if (failures.length) setCondition(status, failures[0]!);
  else removeCondition(status, 'ReplicaFailure');
  if (!(await writeStatus(ctx, d, status))) requeueStuckDeployment(ctx, d, status);
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure conditions, else the others'. */
export function replicaFailures(allRSs: readonly MaybeRS[], newRS: MaybeRS): DeploymentCondition[] {
  const of = (rs: MaybeRS) =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === 'ReplicaFailure').map(fromReplicaSetCondition);
  const own = of(newRS);
  return own.length ? own : allRSs.flatMap(of);
}

/**
 * requeueStuckDeployment: when a rollout with a deadline is neither complete nor timed out,
 * sync again when the deadline would pass (+1 s; now when under a second). Returns the delay in
 * ms, or -1 when no requeue is needed.
 */
export function requeueStuckDeployment(ctx: SyncContext, d: Deployment, status: DeploymentStatus): number {
  const current = getCondition(d.status, 'Progressing');
  if (!hasProgressDeadline(d) || !current) return -1;
  if (deploymentComplete(d, status) || current.reason === Reason.TimedOut) return -1;
  const last = Date.parse(current.lastUpdateTime ?? '') || 0;
  const after = last + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - ctx.now().getTime();
  if (after < 1000) {
    ctx.requeueAfter(d, 0);
    return 0;
  }
  ctx.requeueAfter(d, after + 1000);
  return after;
}
