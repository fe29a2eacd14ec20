/**
 * The Suspended condition of a Job (upstream 1.33 syncJob after manageJob): `Suspended=True`
 * `JobSuspended` "Job suspended" while spec.suspend is true, `False` `JobResumed` "Job resumed"
 * once it is not (only when the condition was there), with the Events `Suspended` / `Resumed`;
 * a resumed job's startTime is reset to now, as activeDeadlineSeconds counts continuous activity.
 * Suspending clears startTime: 1.33's status validation (JobManagedBy) refuses to change the
 * startTime of a job that is not suspended, so the reset on resume must start from none.
 */
import { rfc3339 } from '../../api/object.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { JobSyncDeps } from './client.js';
import { ensureJobConditionStatus, jobSuspended } from './job-util.js';

/** Update the job's Suspended condition at `now` (ms); returns whether it changed. */
export function ensureSuspendCondition(job: Job, deps: JobSyncDeps, now: number): boolean {
  const status = (job.status ??= {});
  const suspended = jobSuspended(job);
  const [conditions, changed] = suspended
    ? ensureJobConditionStatus(status.conditions ?? [], 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)
    : ensureJobConditionStatus(status.conditions ?? [], 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
  if (!changed) return false;
  status.conditions = conditions;
  if (suspended) {
    deps.client.recordEvent(job, 'Normal', 'Suspended', 'Job suspended');
    delete status.startTime;
  } else {
    deps.client.recordEvent(job, 'Normal', 'Resumed', 'Job resumed');
    status.startTime = rfc3339(new Date(now));
  }
  return true;
}
