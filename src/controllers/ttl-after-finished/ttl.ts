/**
 * When a finished Job expires (upstream 1.33 pkg/controller/ttlafterfinished
 * ttlafterfinished_controller.go needsCleanup, jobFinishTime, getFinishAndExpireTime,
 * timeLeft): a Job with ttlSecondsAfterFinished and a Complete or Failed condition expires that
 * many seconds after the condition's lastTransitionTime. Times are ms since the epoch. Pure.
 */
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { isJobFinished } from '../job/job-util.js';

/** A finished Job with ttlSecondsAfterFinished set. */
export function needsCleanup(job: Job): boolean {
  return job.spec?.ttlSecondsAfterFinished != null && isJobFinished(job);
}

/** When the job finished: its Complete=True or Failed=True condition's lastTransitionTime. Throws Error. */
export function jobFinishTime(job: Job): number {
  const ref = `${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''}`;
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') {
      const at = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
      if (Number.isNaN(at)) throw new Error(`unable to find the time when the Job ${ref} finished`);
      return at;
    }
  }
  throw new Error(`unable to find the status of the finished Job ${ref}`);
}

/**
 * The time left before the job expires, from `since`, and when it expires (upstream timeLeft).
 * Throws Error `job <ns>/<name> should not be cleaned up` when it has no TTL or is not finished.
 */
export function timeLeft(job: Job, since: number): { remainingMs: number; expireAt: number } {
  if (!needsCleanup(job))
    throw new Error(`job ${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''} should not be cleaned up`);
  const expireAt = jobFinishTime(job) + (job.spec?.ttlSecondsAfterFinished ?? 0) * 1000;
  return { remainingMs: expireAt - since, expireAt };
}
