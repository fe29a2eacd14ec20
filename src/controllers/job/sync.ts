/**
 * One sync of a Job (upstream 1.33 pkg/controller/job/job_controller.go syncJob,
 * getPodsForJob, getNewFinishedPods, nonIgnoredFailedPodsCount, getFailJobMessage,
 * pastBackoffLimitOnFailure, pastActiveDeadline): claim the job's pods, count them, decide
 * whether the job has failed (pod failure policy FailJob, backoffLimit, activeDeadlineSeconds,
 * failed indexes) or met its success criteria, then either delete its active pods (finishing)
 * or manage pods toward parallelism and completions (honouring suspend), and track the status.
 */
import { deepCopy, rfc3339 } from '../../api/object.js';
import { labelSelectorOf, type LabelSelectorObject } from '../../api/label-selector.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { claimPods, recheckDeletionTimestamp } from '../replicaset/claim.js';
import { filterActivePods, isPodReady } from '../replicaset/pod-ranking.js';
import type { Workload } from '../replicaset/workload.js';
import type { JobSyncDeps } from './client.js';
import type { SyncJobCtx } from './job-ctx.js';
import { validPodsWithFilter } from './job-ctx.js';
import { calculateFailedIndexes, calculateSucceededIndexes, podsWithDelayedDeletionPerIndex } from './indexed.js';
import { totalIndexes } from './intervals.js';
import {
  findCondition,
  hasBackoffLimitPerIndex,
  isIndexedJob,
  isJobFinished,
  isPodFailed,
  isPodTerminating,
  jobSuspended,
  managedByExternalController,
  newCondition,
  timeOf,
} from './job-util.js';
import { deleteActivePods, jobControllerRef, manageJob } from './manage.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { matchSuccessPolicy } from './success-policy.js';
import { hasSuccessCriteriaMet, trackJobStatusAndRemoveFinalizers } from './track-status.js';
import { ensureSuspendCondition } from './suspend.js';

/** The pods the job owns after claiming (upstream getPodsForJob); adopted pods get the tracking finalizer. */
async function podsForJob(job: Job, deps: JobSyncDeps): Promise<Pod[]> {
  const ns = job.metadata.namespace ?? '';
  const selector = labelSelectorOf((job.spec?.selector ?? {}) as LabelSelectorObject);
  const all = await deps.client.listPods(ns);
  const owner = job as unknown as Workload;
  const claimed = await claimPods(owner, selector, jobControllerRef(job), all, deps.client, () =>
    recheckDeletionTimestamp(
      owner,
      'Job',
      async () => (await deps.client.getJobFresh(ns, job.metadata.name ?? '')) as unknown as Workload,
    ),
  );
  return claimed;
}

/** Finished pods not yet counted (upstream getNewFinishedPods). */
export function newFinishedPods(ctx: SyncJobCtx): [Pod[], Pod[]] {
  return [
    validPodsWithFilter(ctx, ctx.uncounted.succeeded, (p) => p.status?.phase === 'Succeeded'),
    validPodsWithFilter(ctx, ctx.uncounted.failed, (p) => isPodFailed(p, ctx.job)),
  ];
}

/** The failed pods that count towards backoffLimit (not matched by an Ignore rule). */
function nonIgnoredFailedCount(job: Job, failed: readonly Pod[]): number {
  return failed.filter((p) => matchPodFailurePolicy(job.spec?.podFailurePolicy, p).countFailed).length;
}

/** The message of a FailJob rule matched by a failed pod (upstream getFailJobMessage). */
export function failJobMessage(job: Job, pods: readonly Pod[]): string | undefined {
  if (!job.spec?.podFailurePolicy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, p).failJobMessage;
    if (m) return m;
  }
  return undefined;
}

/** With restartPolicy OnFailure: container restarts of running or pending pods reach backoffLimit. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])])
      restarts += s.restartCount ?? 0;
  }
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** activeDeadlineSeconds has passed since startTime (never while suspended). */
export function pastActiveDeadline(job: Job, now: number): boolean {
  const ads = job.spec?.activeDeadlineSeconds;
  const start = timeOf(job.status?.startTime);
  if (ads == null || start === undefined || jobSuspended(job)) return false;
  return now - start >= ads * 1000;
}

/** Sync the job `namespace/name`. Throws the first error (the queue retries with back-off). */
export async function syncJob(key: string, deps: JobSyncDeps): Promise<void> {
  const slash = key.indexOf('/');
  const [ns, name] = [key.slice(0, slash), key.slice(slash + 1)];
  const shared = await deps.client.getJob(ns, name);
  if (!shared) {
    deps.expectations.delete(key);
    deps.finalizerExpectations.delete(key);
    deps.backoff.remove(key);
    return;
  }
  if (managedByExternalController(shared)) return;
  const job = deepCopy(shared);
  if (isJobFinished(job)) return deps.backoff.remove(key);
  const mode = job.spec?.completionMode;
  if (mode != null && mode !== 'NonIndexed' && mode !== 'Indexed') {
    deps.client.recordEvent(
      job,
      'Warning',
      'UnknownCompletionMode',
      'Skipped Job sync because completion mode is unknown',
    );
    return;
  }
  const status = (job.status ??= {});
  const uncountedIn = (status.uncountedTerminatedPods ??= {});
  const satisfied = deps.expectations.satisfied(key);
  const pods = await podsForJob(job, deps);
  const activePods = filterActivePods(pods);
  const now = deps.now();
  const ctx: SyncJobCtx = {
    job,
    pods,
    activePods,
    ready: activePods.filter(isPodReady).length,
    succeeded: 0,
    failed: 0,
    prevSucceededIndexes: [],
    succeededIndexes: [],
    newBackoffRecord: { key, failuresAfterLastSuccess: 0 },
    expectedRmFinalizers: deps.finalizerExpectations.expectedUids(key),
    uncounted: { succeeded: new Set(uncountedIn.succeeded ?? []), failed: new Set(uncountedIn.failed ?? []) },
    terminating: pods.filter(isPodTerminating).length,
  };
  let active = activePods.length;
  const [newSucceeded, newFailed] = newFinishedPods(ctx);
  ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncounted.succeeded.size;
  ctx.failed = (status.failed ?? 0) + nonIgnoredFailedCount(job, newFailed) + ctx.uncounted.failed.size;
  if (!status.startTime && !jobSuspended(job)) status.startTime = rfc3339(new Date(now));
  ctx.newBackoffRecord = deps.backoff.newRecord(key, newSucceeded, newFailed);
  decideFailure(ctx, deps, key, now);
  if (isIndexedJob(job)) decideIndexed(ctx, now);
  let manageError: unknown;
  let suspendChanged = false;
  if (ctx.finishedCondition) {
    const r = await deleteActivePods(job, ctx.activePods, deps);
    if (r.deleted !== active || !satisfied) ctx.finishedCondition = undefined;
    active -= r.deleted;
    ctx.terminating += r.deleted;
    ctx.ready -= r.deletedReady;
    manageError = r.error;
  } else {
    let managed = false;
    if (satisfied && !job.metadata.deletionTimestamp) {
      ({ active, error: manageError } = await manageJob(job, ctx, deps));
      managed = true;
    }
    const completions = job.spec?.completions;
    const complete =
      completions == null ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= completions && active === 0;
    if (complete)
      ctx.finishedCondition = newCondition(
        'SuccessCriteriaMet',
        'True',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
        now,
      );
    else if (managed) suspendChanged = ensureSuspendCondition(job, deps, now);
  }
  const needsUpdate =
    suspendChanged ||
    active !== (status.active ?? 0) ||
    ctx.ready !== (status.ready ?? undefined) ||
    ctx.terminating !== (status.terminating ?? undefined);
  status.active = active;
  status.ready = ctx.ready;
  status.terminating = ctx.terminating;
  await trackJobStatusAndRemoveFinalizers(ctx, deps, needsUpdate);
  if (manageError) throw manageError;
}

/** The failure conditions checked before counting indexes (upstream syncJob's first block). */
function decideFailure(ctx: SyncJobCtx, deps: JobSyncDeps, key: string, now: number): void {
  const job = ctx.job;
  ctx.finishedCondition = hasSuccessCriteriaMet(job);
  if (!ctx.finishedCondition) {
    const target = findCondition(job.status?.conditions, 'FailureTarget');
    const message = target?.status === 'True' ? undefined : failJobMessage(job, ctx.pods);
    if (target?.status === 'True')
      ctx.finishedCondition = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now);
    else if (message) ctx.finishedCondition = newCondition('FailureTarget', 'True', 'PodFailurePolicy', message, now);
  }
  if (ctx.finishedCondition) return;
  const exceeds = ctx.failed > (job.spec?.backoffLimit ?? 6);
  if (exceeds || pastBackoffLimitOnFailure(job, ctx.pods))
    ctx.finishedCondition = newCondition(
      'FailureTarget',
      'True',
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
      now,
    );
  else if (pastActiveDeadline(job, now))
    ctx.finishedCondition = newCondition(
      'FailureTarget',
      'True',
      'DeadlineExceeded',
      'Job was active longer than specified deadline',
      now,
    );
  else if (job.spec?.activeDeadlineSeconds != null && !jobSuspended(job)) {
    const start = timeOf(job.status?.startTime) ?? now;
    deps.enqueueAfter(key, job.spec.activeDeadlineSeconds * 1000 - (now - start));
  }
}

/** Indexed jobs: succeeded and failed indexes, the per-index limits and the success policy. */
function decideIndexed(ctx: SyncJobCtx, now: number): void {
  const job = ctx.job;
  const completions = job.spec?.completions ?? 0;
  [ctx.prevSucceededIndexes, ctx.succeededIndexes] = calculateSucceededIndexes(job, ctx.pods);
  ctx.succeeded = totalIndexes(ctx.succeededIndexes);
  if (hasBackoffLimitPerIndex(job)) {
    ctx.failedIndexes = calculateFailedIndexes(job, ctx.pods);
    const failed = totalIndexes(ctx.failedIndexes);
    if (!ctx.finishedCondition) {
      if (job.spec?.maxFailedIndexes != null && failed > job.spec.maxFailedIndexes)
        ctx.finishedCondition = newCondition(
          'FailureTarget',
          'True',
          'MaxFailedIndexesExceeded',
          'Job has exceeded the specified maximal number of failed indexes',
          now,
        );
      else if (failed > 0 && failed + totalIndexes(ctx.succeededIndexes) >= completions)
        ctx.finishedCondition = newCondition('FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes', now);
    }
    ctx.podsWithDelayedDeletionPerIndex = podsWithDelayedDeletionPerIndex(ctx);
  }
  if (!ctx.finishedCondition) {
    const msg = matchSuccessPolicy(job.spec?.successPolicy, completions, ctx.succeededIndexes);
    if (msg) ctx.finishedCondition = newCondition('SuccessCriteriaMet', 'True', 'SuccessPolicy', msg, now);
  }
}
