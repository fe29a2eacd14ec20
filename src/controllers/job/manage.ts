/**
 * Pods toward parallelism and completions (upstream 1.33 pkg/controller/job/job_controller.go
 * manageJob, deleteJobPods, deleteActivePods, activePodsForRemoval): a suspended job's active
 * pods are deleted; too many active pods are deleted (duplicated indexes first); too few are
 * created, after the pod-failure back-off, in slow-start batches, at most
 * MAX_POD_CREATE_DELETE_PER_SYNC per sync, each carrying the tracking finalizer.
 */
import { ApiError } from '../../errors/api-error.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { isPodReady } from '../replicaset/pod-ranking.js';
import { podFromTemplate, slowStartBatch, SLOW_START_INITIAL_BATCH_SIZE } from '../replicaset/pod-template.js';
import type { PodTemplate } from '../replicaset/workload.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import { remainingTime, remainingTimePerIndex } from './backoff.js';
import { MAX_POD_CREATE_DELETE_PER_SYNC, SYNC_JOB_BATCH_PERIOD_MS, type JobSyncDeps } from './client.js';
import type { SyncJobCtx } from './job-ctx.js';
import {
  duplicatedIndexPodsForRemoval,
  firstPendingIndexes,
  podGenerateNameWithIndex,
  sortActivePods,
  templateForIndex,
} from './indexed.js';
import {
  hasBackoffLimitPerIndex,
  isIndexedJob,
  JOB_TRACKING_FINALIZER,
  jobSuspended,
  keyOf,
  onlyReplaceFailedPods,
} from './job-util.js';

const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

/** The controllerRef of the job's pods (metav1.NewControllerRef). */
export function jobControllerRef(job: Job) {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata.name ?? '',
    uid: job.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * The active pods to delete so at least `rmAtLeast` go (upstream activePodsForRemoval): for
 * Indexed jobs pods without a valid index and duplicates first; then in ActivePods order.
 */
export function activePodsForRemoval(job: Job, pods: readonly Pod[], rmAtLeast: number): Pod[] {
  let rm: Pod[] = [];
  let left: Pod[] = [...pods];
  if (isIndexedJob(job)) ({ rm, left } = duplicatedIndexPodsForRemoval(pods, job.spec?.completions ?? 0));
  if (rm.length < rmAtLeast) rm = [...rm, ...sortActivePods(left).slice(0, rmAtLeast - rm.length)];
  return rm;
}

/** Result of deleting pods: how many went (and how many of those were ready), and the first error. */
interface Deleted {
  readonly deleted: number;
  readonly deletedReady: number;
  readonly error?: unknown;
}

/**
 * Remove the tracking finalizer from each pod, then delete it (upstream deleteJobPods); a
 * failure is observed in the expectations at once. A pod already gone counts as deleted.
 */
export async function deleteJobPods(job: Job, pods: readonly Pod[], deps: JobSyncDeps): Promise<Deleted> {
  const key = keyOf(job);
  let deleted = 0;
  let deletedReady = 0;
  let error: unknown;
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await deps.client.removeTrackingFinalizer(pod);
        await deps.client.deletePod(job.metadata.namespace ?? '', pod.metadata.name ?? '', job);
      } catch (err) {
        deps.expectations.deletionObserved(key, keyOf(pod));
        if (!notFound(err)) return void (error ??= err);
      }
      deleted++;
      if (isPodReady(pod)) deletedReady++;
    }),
  );
  return { deleted, deletedReady, error };
}

/** Delete the active pods keeping their finalizers (upstream deleteActivePods, for a finishing job). */
export async function deleteActivePods(job: Job, pods: readonly Pod[], deps: JobSyncDeps): Promise<Deleted> {
  let deleted = 0;
  let deletedReady = 0;
  let error: unknown;
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await deps.client.deletePod(job.metadata.namespace ?? '', pod.metadata.name ?? '', job);
      } catch (err) {
        if (!notFound(err)) return void (error ??= err);
      }
      deleted++;
      if (isPodReady(pod)) deletedReady++;
    }),
  );
  return { deleted, deletedReady, error };
}

/** How many pods the job wants active now (upstream manageJob's wantActive). */
export function wantActive(job: Job, ctx: SyncJobCtx, active: number): number {
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  if (completions == null) return ctx.succeeded > 0 ? active : parallelism;
  return Math.max(0, Math.min(completions - ctx.succeeded, parallelism));
}

/**
 * Create or delete pods toward what the job wants (upstream manageJob), updating `ctx`
 * (terminating, ready) for what was done. Returns the active count after the writes and the
 * first write error (not thrown, so the status is still tracked). While creations wait for the
 * pod-failure back-off the active pods are reported as they are (upstream reports 0 then,
 * which 1.33's status validation refuses when some pod is ready: `ready` > `active`).
 */
export async function manageJob(
  job: Job,
  ctx: SyncJobCtx,
  deps: JobSyncDeps,
): Promise<{ active: number; error?: unknown }> {
  const key = keyOf(job);
  const active = ctx.activePods.length;
  if (jobSuspended(job)) {
    const rm = activePodsForRemoval(job, ctx.activePods, active);
    deps.expectations.expectDeletions(key, rm.map(keyOf));
    const r = await deleteJobPods(job, rm, deps);
    ctx.terminating += r.deleted;
    ctx.ready -= r.deletedReady;
    return { active: active - r.deleted, error: r.error };
  }
  const want = wantActive(job, ctx, active);
  const rm = activePodsForRemoval(job, ctx.activePods, Math.max(0, active - want)).slice(
    0,
    MAX_POD_CREATE_DELETE_PER_SYNC,
  );
  if (rm.length) {
    deps.expectations.expectDeletions(key, rm.map(keyOf));
    const r = await deleteJobPods(job, rm, deps);
    ctx.terminating += r.deleted;
    ctx.ready -= r.deletedReady;
    return { active: active - r.deleted, error: r.error };
  }
  const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
  let diff = want - terminating - active;
  if (diff <= 0) return { active };
  const now = deps.now();
  let wait = hasBackoffLimitPerIndex(job) ? 0 : remainingTime(ctx.newBackoffRecord, now);
  if (wait > 0) {
    deps.enqueueAfter(key, Math.max(wait, SYNC_JOB_BATCH_PERIOD_MS));
    return { active };
  }
  diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
  let indexes: number[] = [];
  if (isIndexedJob(job)) {
    indexes = firstPendingIndexes(ctx, diff, job.spec?.completions ?? 0);
    if (hasBackoffLimitPerIndex(job)) {
      const delayed = ctx.podsWithDelayedDeletionPerIndex ?? new Map();
      const at = deps.now();
      const ready = indexes.filter((ix) => remainingTimePerIndex(delayed.get(ix), at) === 0);
      if (!ready.length && indexes.length) {
        wait = Math.min(...indexes.map((ix) => remainingTimePerIndex(delayed.get(ix), at)));
        deps.enqueueAfter(key, Math.max(wait, SYNC_JOB_BATCH_PERIOD_MS));
        return { active };
      }
      indexes = ready;
    }
    diff = indexes.length;
  }
  return createPods(job, ctx, deps, diff, indexes, active);
}

/** Create `diff` pods (for `indexes`, in order, when Indexed) in slow-start batches. */
async function createPods(
  job: Job,
  ctx: SyncJobCtx,
  deps: JobSyncDeps,
  diff: number,
  indexes: number[],
  active: number,
): Promise<{ active: number; error?: unknown }> {
  const key = keyOf(job);
  const ns = job.metadata.namespace ?? '';
  deps.expectations.expectCreations(key, diff);
  const template = (job.spec?.template ?? {}) as PodTemplate;
  const finalizers = template.metadata?.finalizers ?? [];
  const base: PodTemplate = {
    ...template,
    metadata: {
      ...(template.metadata ?? {}),
      finalizers: finalizers.includes(JOB_TRACKING_FINALIZER) ? finalizers : [...finalizers, JOB_TRACKING_FINALIZER],
    },
  };
  const pending = [...indexes];
  let error: unknown;
  const result = await slowStartBatch(diff, SLOW_START_INITIAL_BATCH_SIZE, async () => {
    const index = pending.shift();
    const name = job.metadata.name ?? '';
    const pod =
      index === undefined
        ? podFromTemplate(base, ns, name, jobControllerRef(job))
        : podFromTemplate(
            templateForIndex(job, base, index, ctx.podsWithDelayedDeletionPerIndex?.get(index)),
            ns,
            name,
            jobControllerRef(job),
          );
    if (index !== undefined) pod.metadata.generateName = podGenerateNameWithIndex(name, index);
    try {
      await deps.client.createPod(ns, pod, job);
    } catch (err) {
      if (namespaceTerminating(err)) return;
      deps.expectations.creationObserved(key);
      error ??= err;
      throw err;
    }
  });
  // Creations never attempted after a failed batch are not expected either.
  const attempted = result.error ? countAttempted(diff, result.successes) : diff;
  for (let i = attempted; i < diff; i++) deps.expectations.creationObserved(key);
  return { active: active + result.successes, error: error ?? result.error };
}

/**
 * How many creations slowStartBatch attempted before it stopped: the batches 1, 2, 4, ... up
 * to and including the first with a failure, which the successes place.
 */
function countAttempted(diff: number, successes: number): number {
  let attempted = 0;
  for (let batch = Math.min(diff, 1); batch > 0; batch = Math.min(2 * batch, diff - attempted)) {
    attempted += batch;
    if (attempted > successes) return attempted;
  }
  return attempted;
}
