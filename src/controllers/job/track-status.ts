/**
 * Counting finished pods into the Job's status (upstream 1.33 pkg/controller/job/job_controller.go
 * trackJobStatusAndRemoveFinalizers, canRemoveFinalizer, flushUncountedAndRemoveFinalizers,
 * cleanUncountedPodsWithoutFinalizers, removeTrackingFinalizerFromPods, enactJobFinished,
 * recordJobFinished): finished pods' uids go to status.uncountedTerminatedPods (or, for Indexed
 * jobs, their index to completedIndexes) and that status is written first; then their tracking
 * finalizers are removed; uids whose finalizer is gone move into the succeeded / failed
 * counters; once nothing is uncounted nor terminating the interim FailureTarget /
 * SuccessCriteriaMet condition is followed by Failed / Complete.
 */
import { ApiError } from '../../errors/api-error.js';
import type { Job, JobStatus } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { MAX_UNCOUNTED_PODS, type JobSyncDeps } from './client.js';
import type { SyncJobCtx } from './job-ctx.js';
import { formatIntervals, hasIndex, totalIndexes, withOrderedIndexes } from './intervals.js';
import { sortByCompletionIndex } from './indexed.js';
import {
  completionIndexOf,
  ensureJobConditionStatus,
  findCondition,
  hasBackoffLimitPerIndex,
  hasTrackingFinalizer,
  isIndexedJob,
  isPodFailed,
  keyOf,
  newCondition,
  UNKNOWN_INDEX,
} from './job-util.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

type Uncounted = { succeeded?: string[] | null; failed?: string[] | null };

/** Whether the pod's finalizer may go (upstream canRemoveFinalizer). */
function canRemoveFinalizer(ctx: SyncJobCtx, pod: Pod, failed: boolean): boolean {
  if (ctx.job.metadata.deletionTimestamp || ctx.finishedCondition || pod.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  if (hasBackoffLimitPerIndex(ctx.job)) {
    const ix = completionIndexOf(pod);
    const delayed = ix === UNKNOWN_INDEX ? undefined : ctx.podsWithDelayedDeletionPerIndex?.get(ix);
    if (delayed && delayed.metadata.uid === pod.metadata.uid) return false;
  }
  return true;
}

/**
 * Move the uids of `uncounted` whose finalizer is gone (not in `withFinalizer`) into the
 * counters (upstream cleanUncountedPodsWithoutFinalizers). Returns whether anything moved.
 */
export function cleanUncountedPodsWithoutFinalizers(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  const u = (status.uncountedTerminatedPods ??= {}) as Uncounted;
  let updated = false;
  const keepS = (u.succeeded ?? []).filter((uid) => withFinalizer.has(uid));
  if (keepS.length !== (u.succeeded ?? []).length) {
    updated = true;
    status.succeeded = (status.succeeded ?? 0) + (u.succeeded ?? []).length - keepS.length;
    u.succeeded = keepS.length ? keepS : undefined;
  }
  const keepF = (u.failed ?? []).filter((uid) => withFinalizer.has(uid));
  if (keepF.length !== (u.failed ?? []).length) {
    updated = true;
    status.failed = (status.failed ?? 0) + (u.failed ?? []).length - keepF.length;
    u.failed = keepF.length ? keepF : undefined;
  }
  if (!u.succeeded) delete u.succeeded;
  if (!u.failed) delete u.failed;
  return updated;
}

/** Upstream trackJobStatusAndRemoveFinalizers; throws the first write error. */
export async function trackJobStatusAndRemoveFinalizers(
  ctx: SyncJobCtx,
  deps: JobSyncDeps,
  needsFlushIn: boolean,
): Promise<void> {
  let needsFlush = needsFlushIn;
  const job = ctx.job;
  const status = (job.status ??= {});
  const uncounted = (status.uncountedTerminatedPods ??= {}) as Uncounted;
  const indexed = isIndexedJob(job);
  const completions = job.spec?.completions ?? 0;
  if (indexed) ctx.pods = sortByCompletionIndex(ctx.pods);
  const withFinalizer = new Set<string>();
  for (const p of ctx.pods) {
    const uid = p.metadata.uid ?? '';
    if (hasTrackingFinalizer(p) && !ctx.expectedRmFinalizers.has(uid)) withFinalizer.add(uid);
  }
  if (cleanUncountedPodsWithoutFinalizers(status, withFinalizer)) needsFlush = true;
  const toRemove: Pod[] = [];
  const newSucceededIndexes: number[] = [];
  let reachedMax = false;
  for (const pod of ctx.pods) {
    const uid = pod.metadata.uid ?? '';
    if (!hasTrackingFinalizer(pod) || ctx.expectedRmFinalizers.has(uid)) continue;
    const failed = isPodFailed(pod, job);
    if (!canRemoveFinalizer(ctx, pod, failed)) continue;
    toRemove.push(pod);
    if (pod.status?.phase === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
      if (indexed) {
        const ix = completionIndexOf(pod);
        if (ix !== UNKNOWN_INDEX && ix < completions && !hasIndex(ctx.prevSucceededIndexes, ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!ctx.uncounted.succeeded.has(uid)) {
        needsFlush = true;
        uncounted.succeeded = [...(uncounted.succeeded ?? []), uid];
      }
    } else if (failed || (ctx.finishedCondition && ctx.finishedCondition.type !== 'SuccessCriteriaMet')) {
      const ix = completionIndexOf(pod);
      if (!ctx.uncounted.failed.has(uid) && (!indexed || (ix !== UNKNOWN_INDEX && ix < completions))) {
        if (matchPodFailurePolicy(job.spec?.podFailurePolicy, pod).countFailed) {
          needsFlush = true;
          uncounted.failed = [...(uncounted.failed ?? []), uid];
        }
      }
    }
    const count = newSucceededIndexes.length + (uncounted.succeeded?.length ?? 0) + (uncounted.failed?.length ?? 0);
    if (count >= MAX_UNCOUNTED_PODS) {
      reachedMax = true;
      break;
    }
  }
  if (indexed) {
    ctx.succeededIndexes = withOrderedIndexes(
      ctx.succeededIndexes,
      [...new Set(newSucceededIndexes)].sort((a, b) => a - b),
    );
    const text = formatIntervals(ctx.succeededIndexes);
    if (text !== (status.completedIndexes ?? '')) needsFlush = true;
    status.succeeded = totalIndexes(ctx.succeededIndexes);
    status.completedIndexes = text;
    const failedText = ctx.failedIndexes ? formatIntervals(ctx.failedIndexes) : undefined;
    if ((status.failedIndexes ?? undefined) !== failedText) {
      if (failedText === undefined) delete status.failedIndexes;
      else status.failedIndexes = failedText;
      needsFlush = true;
    }
  }
  const now = deps.now();
  if (ctx.finishedCondition?.type === 'FailureTarget') {
    status.conditions = [...(status.conditions ?? []), ctx.finishedCondition];
    needsFlush = true;
    const c = ctx.finishedCondition;
    ctx.finishedCondition = newCondition('Failed', 'True', c.reason ?? '', c.message ?? '', now);
  }
  if (ctx.finishedCondition?.type === 'SuccessCriteriaMet' && ctx.finishedCondition.status === 'True') {
    if (!hasSuccessCriteriaMet(ctx.job)) {
      status.conditions = [...(status.conditions ?? []), ctx.finishedCondition];
      needsFlush = true;
    }
    const c = ctx.finishedCondition;
    ctx.finishedCondition = newCondition('Complete', 'True', c.reason ?? '', c.message ?? '', now);
  }
  needsFlush = await flushUncountedAndRemoveFinalizers(ctx, deps, toRemove, withFinalizer, needsFlush);
  const finished = !reachedMax && enactJobFinished(ctx, now);
  if (finished) needsFlush = true;
  if (needsFlush) {
    ctx.job = await deps.client.updateStatus(ctx.job);
    if (finished) recordJobFinished(ctx.job, ctx.finishedCondition!, deps);
  }
}

/** The SuccessCriteriaMet=True condition, if the job has it (upstream hasSuccessCriteriaMetCondition). */
export function hasSuccessCriteriaMet(job: Job) {
  const c = findCondition(job.status?.conditions, 'SuccessCriteriaMet');
  return c?.status === 'True' ? c : undefined;
}

/** Upstream flushUncountedAndRemoveFinalizers; returns whether status changes are still unwritten. */
async function flushUncountedAndRemoveFinalizers(
  ctx: SyncJobCtx,
  deps: JobSyncDeps,
  toRemove: readonly Pod[],
  withFinalizer: Set<string>,
  needsFlushIn: boolean,
): Promise<boolean> {
  let needsFlush = needsFlushIn;
  if (needsFlush) {
    ctx.job = await deps.client.updateStatus(ctx.job);
    deps.backoff.update(ctx.newBackoffRecord);
    needsFlush = false;
  }
  const key = keyOf(ctx.job);
  let rmError: unknown;
  if (toRemove.length) {
    deps.finalizerExpectations.expectRemoved(
      key,
      toRemove.map((p) => p.metadata.uid ?? ''),
    );
    await Promise.all(
      toRemove.map(async (pod) => {
        const uid = pod.metadata.uid ?? '';
        try {
          await deps.client.removeTrackingFinalizer(pod);
        } catch (err) {
          deps.finalizerExpectations.observed(key, uid);
          if (!(err instanceof ApiError && err.code === 404)) return void (rmError ??= err);
        }
        withFinalizer.delete(uid);
      }),
    );
  }
  if (cleanUncountedPodsWithoutFinalizers((ctx.job.status ??= {}), withFinalizer)) needsFlush = true;
  if (rmError && needsFlush) ctx.job = await deps.client.updateStatus(ctx.job);
  if (rmError) throw rmError;
  return needsFlush;
}

/** Add the Complete or Failed condition once nothing is uncounted nor terminating (upstream enactJobFinished). */
function enactJobFinished(ctx: SyncJobCtx, now: number): boolean {
  const cond = ctx.finishedCondition;
  if (!cond) return false;
  const status = (ctx.job.status ??= {});
  const u = status.uncountedTerminatedPods as Uncounted | undefined;
  if ((u?.succeeded?.length ?? 0) + (u?.failed?.length ?? 0) > 0) return false;
  if (ctx.terminating > 0) return false;
  [status.conditions] = ensureJobConditionStatus(
    status.conditions ?? [],
    cond.type,
    cond.status,
    cond.reason ?? '',
    cond.message ?? '',
    now,
  );
  if (cond.type === 'Complete') status.completionTime = cond.lastTransitionTime;
  return true;
}

/** The Events of a finished job (upstream recordJobFinished). */
function recordJobFinished(
  job: Job,
  cond: { type: string; reason?: string | null; message?: string | null },
  deps: JobSyncDeps,
): void {
  if (cond.type === 'Complete') {
    const completions = job.spec?.completions;
    if (completions != null && (job.status?.succeeded ?? 0) > completions)
      deps.client.recordEvent(
        job,
        'Warning',
        'TooManySucceededPods',
        'Too many succeeded pods running after completion count reached',
      );
    deps.client.recordEvent(job, 'Normal', 'Completed', 'Job completed');
  } else deps.client.recordEvent(job, 'Warning', cond.reason ?? '', cond.message ?? '');
}
