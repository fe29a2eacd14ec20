/**
 * Names and small predicates of the Job controller (upstream 1.33 pkg/controller/job:
 * job_controller.go isPodFailed, onlyReplaceFailedPods, newCondition, ensureJobConditionStatus,
 * findConditionByType; indexed_job_utils.go isIndexedJob, getCompletionIndex; util/utils.go
 * IsJobFinished; tracking_utils.go hasJobTrackingFinalizer). Every 1.33 feature gate the
 * controller consults is at its default: JobPodReplacementPolicy, JobManagedBy,
 * JobBackoffLimitPerIndex, JobSuccessPolicy and PodIndexLabel are on. Pure.
 */
import { rfc3339, type ApiObject } from '../../api/object.js';
import type { Job, JobConditionItem } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';

/** The finalizer the controller keeps on its pods until it has counted them (batch.JobTrackingFinalizer). */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** The annotation (and, with PodIndexLabel, label) holding a pod's completion index. */
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
/** How many counted failures an index had before this pod (backoffLimitPerIndex). */
export const INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
/** How many failures of an index were ignored by the pod failure policy before this pod. */
export const INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count';
/** The value of spec.managedBy for jobs this controller syncs (batch.JobControllerName). */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';
/** A pod without a valid completion index. */
export const UNKNOWN_INDEX = -1;

/** A condition of a Job's status. */
export type JobCondition = JobConditionItem;

/** `namespace/name` (upstream KeyFunc). */
export function keyOf(obj: ApiObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/** Whether the job has a `Complete` or `Failed` condition with status True (upstream IsJobFinished). */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** completionMode Indexed. */
export function isIndexedJob(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** backoffLimitPerIndex is set (JobBackoffLimitPerIndex is GA in 1.33). */
export function hasBackoffLimitPerIndex(job: Job): boolean {
  return job.spec?.backoffLimitPerIndex != null;
}

/** spec.completions, or undefined when unset (any one success completes the job). */
export function completionsOf(job: Job): number | undefined {
  return job.spec?.completions ?? undefined;
}

/** spec.suspend is true. */
export function jobSuspended(job: Job): boolean {
  return job.spec?.suspend === true;
}

/** The name of the controller managing the job when it is not this one (spec.managedBy), else undefined. */
export function managedByExternalController(job: Job): string | undefined {
  const by = job.spec?.managedBy;
  return by && by !== JOB_CONTROLLER_NAME ? by : undefined;
}

/** The completion index of the pod's annotations, or UNKNOWN_INDEX (absent, not an integer, negative). */
export function completionIndexOf(pod: Pod): number {
  const v = pod.metadata.annotations?.[COMPLETION_INDEX];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return UNKNOWN_INDEX;
  const n = Number(v);
  return n < 0 ? UNKNOWN_INDEX : n;
}

/** Whether the pod carries the tracking finalizer. */
export function hasTrackingFinalizer(pod: Pod): boolean {
  return (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** Pods are replaced only once Failed: podReplacementPolicy Failed, or a podFailurePolicy is set. */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy != null;
}

/**
 * Whether the pod counts as failed (upstream isPodFailed): phase Failed, or — unless only
 * failed pods are replaced — being deleted without having succeeded.
 */
export function isPodFailed(pod: Pod, job: Job): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return Boolean(pod.metadata.deletionTimestamp) && phase !== 'Succeeded';
}

/** Pods being deleted that have not finished (upstream controller.FilterTerminatingPods). */
export function isPodTerminating(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return Boolean(pod.metadata.deletionTimestamp) && phase !== 'Succeeded' && phase !== 'Failed';
}

/** A condition with both times `now` (ms since the epoch). */
export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const t = rfc3339(new Date(now));
  const cond: JobCondition = { type, status, lastProbeTime: t, lastTransitionTime: t };
  if (reason) cond.reason = reason;
  if (message) cond.message = message;
  return cond;
}

/** The condition of `type`, if any. */
export function findCondition(
  list: readonly JobCondition[] | null | undefined,
  type: string,
): JobCondition | undefined {
  return (list ?? []).find((c) => c.type === type);
}

/**
 * `list` with the condition `type` set to `status`, `reason`, `message` (upstream
 * ensureJobConditionStatus): an existing one is replaced when any of the three differ; a new
 * one is added unless its status is False. Returns the list and whether it changed.
 */
export function ensureJobConditionStatus(
  list: readonly JobCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): [JobCondition[], boolean] {
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message) return [[...list], false];
    const out = [...list];
    out[i] = newCondition(type, status, reason, message, now);
    return [out, true];
  }
  if (status !== 'False') return [[...list, newCondition(type, status, reason, message, now)], true];
  return [[...list], false];
}

/** A time field in ms since the epoch, undefined when absent or unparsable. */
export function timeOf(t: string | null | undefined): number | undefined {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}
