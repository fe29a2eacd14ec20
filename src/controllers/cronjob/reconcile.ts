/**
 * The CronJob controller's sync of one key (upstream 1.33 cronjob_controllerv2.go sync,
 * getJobsToBeReconciled, cleanupFinishedJobs, removeOldestJobs): the Jobs it controls, the
 * finished ones beyond successfulJobsHistoryLimit / failedJobsHistoryLimit deleted oldest
 * first, syncCronJob (sync.ts), one status write for both, and when to sync again.
 */
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { deleteJob, syncCronJob, type CronJobSyncContext } from './sync.js';
import { byJobStartTime, controllerRefOf, finishedCondition } from './utils.js';

/** What syncing a key needs beyond {@link CronJobSyncContext}: the cached reads (upstream's listers). */
export interface CronJobKeyContext extends CronJobSyncContext {
  /** The cached CronJob, or undefined when there is none. */
  getCached(namespace: string, name: string): Promise<CronJob | undefined>;
  /** The cached Jobs of a namespace. */
  listJobs(namespace: string): Promise<Job[]>;
}

/** getJobsToBeReconciled: the Jobs whose controller reference names the CronJob (any labels). */
export function jobsToBeReconciled(cj: CronJob, jobs: readonly Job[]): Job[] {
  return jobs.filter((j) => {
    const ref = controllerRefOf(j);
    return ref !== undefined && ref.name === cj.metadata.name;
  });
}

/** removeOldestJobs: delete all but the newest `max` of `jobs` (by start time); whether any went. */
async function removeOldestJobs(cj: CronJob, jobs: Job[], max: number, ctx: CronJobSyncContext): Promise<boolean> {
  const excess = jobs.length - max;
  if (excess <= 0) return false;
  let updateStatus = false;
  for (const job of [...jobs].sort(byJobStartTime).slice(0, excess))
    if (await deleteJob(cj, job, ctx)) updateStatus = true;
  return updateStatus;
}

/** cleanupFinishedJobs: apply the history limits to `jobs`; whether the status changed. */
export async function cleanupFinishedJobs(
  cj: CronJob,
  jobs: readonly Job[],
  ctx: CronJobSyncContext,
): Promise<boolean> {
  const { successfulJobsHistoryLimit: keepSucceeded, failedJobsHistoryLimit: keepFailed } = cj.spec ?? {};
  const hasLimit = (n: number | null | undefined): n is number => n !== undefined && n !== null;
  if (!hasLimit(keepSucceeded) && !hasLimit(keepFailed)) return false;
  const succeeded = jobs.filter((j) => finishedCondition(j) === 'Complete');
  const failed = jobs.filter((j) => finishedCondition(j) === 'Failed');
  let updateStatus = false;
  if (hasLimit(keepSucceeded) && (await removeOldestJobs(cj, succeeded, keepSucceeded, ctx))) updateStatus = true;
  if (hasLimit(keepFailed) && (await removeOldestJobs(cj, failed, keepFailed, ctx))) updateStatus = true;
  return updateStatus;
}

/**
 * upstream sync: reconcile the CronJob `namespace/name`. Answers the delay (ms) after which to
 * sync it again, or undefined (suspended, unparseable, gone); throws the status write's error,
 * or the sync's when no requeue is due, for the caller to retry with backoff.
 */
export async function syncCronJobKey(
  namespace: string,
  name: string,
  ctx: CronJobKeyContext,
): Promise<number | undefined> {
  const cached = await ctx.getCached(namespace, name);
  if (!cached) return undefined;
  const jobs = jobsToBeReconciled(cached, await ctx.listJobs(namespace));
  const cj = structuredClone(cached);
  const cleaned = await cleanupFinishedJobs(cj, jobs, ctx);
  const result = await syncCronJob(cj, jobs, ctx);
  if (cleaned || result.updateStatus) await ctx.client.updateStatus(cj);
  if (result.requeueAfterMs !== undefined) return result.requeueAfterMs;
  if (result.error !== undefined) throw result.error;
  return undefined;
}
