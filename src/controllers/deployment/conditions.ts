/**
 * Deployment conditions and progress checks (upstream deployment/util/deployment_util.go
 * NewDeploymentCondition, GetDeploymentCondition, SetDeploymentCondition,
 * RemoveDeploymentCondition, ReplicaSetToDeploymentCondition, HasProgressDeadline,
 * HasRevisionHistoryLimit, DeploymentComplete, DeploymentProgressing, DeploymentTimedOut).
 */
import { rfc3339 } from '../../api/object.js';
import {
  Reason,
  specReplicas,
  type Deployment,
  type DeploymentCondition,
  type DeploymentStatus,
  type ReplicaSet,
} from './types.js';

const MAX_INT32 = 2147483647;

/** NewDeploymentCondition: both times `now`. */
export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: Date,
): DeploymentCondition {
  const t = rfc3339(now);
  return { type, status, reason, message, lastUpdateTime: t, lastTransitionTime: t };
}

/** GetDeploymentCondition. */
export const getCondition = (
  status: DeploymentStatus | null | undefined,
  type: string,
): DeploymentCondition | undefined => status?.conditions?.find((c) => c.type === type);

/**
 * SetDeploymentCondition: nothing when a condition of the type has the same status and reason;
 * otherwise replace it (keeping lastTransitionTime when the status is unchanged), appended last.
 */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const c = { ...condition };
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), c];
}

/** RemoveDeploymentCondition. */
export function removeCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}

/** ReplicaSetToDeploymentCondition: a ReplicaSet condition as a Deployment one (lastUpdateTime = lastTransitionTime). */
export function fromReplicaSetCondition(
  c: NonNullable<NonNullable<ReplicaSet['status']>['conditions']>[number],
): DeploymentCondition {
  return {
    type: c.type,
    status: c.status,
    lastTransitionTime: c.lastTransitionTime,
    lastUpdateTime: c.lastTransitionTime,
    reason: c.reason,
    message: c.message,
  };
}

/** HasProgressDeadline: progressDeadlineSeconds set and not the max int32 ("no deadline"). */
export const hasProgressDeadline = (d: Deployment): boolean =>
  d.spec?.progressDeadlineSeconds !== undefined &&
  d.spec.progressDeadlineSeconds !== null &&
  d.spec.progressDeadlineSeconds !== MAX_INT32;

/** HasRevisionHistoryLimit: set and not the max int32 ("keep all"). */
export const hasRevisionHistoryLimit = (d: Deployment): boolean =>
  d.spec?.revisionHistoryLimit !== undefined &&
  d.spec.revisionHistoryLimit !== null &&
  d.spec.revisionHistoryLimit !== MAX_INT32;

/** DeploymentComplete: every desired replica updated and available, nothing older left, generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = specReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available replicas than the stored status. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * DeploymentTimedOut: the Progressing condition of `s` was last updated more than
 * progressDeadlineSeconds before `now` (already timed out: true; a completed rollout: false).
 */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: Date): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === Reason.NewRSAvailable) return false;
  if (c.reason === Reason.TimedOut) return true;
  const from = Date.parse(c.lastUpdateTime ?? '') || 0;
  return from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < now.getTime();
}
