/**
 * The CronJob controller's helpers (upstream 1.33 pkg/controller/cronjob/utils.go): the active
 * list, a Job's finished state, the most recent unmet schedule time and when to look again, and
 * the Job made from the template. Times are epoch milliseconds; schedules are robfig's as parsed
 * by resources/cronjobs/cron-schedule.ts, without a zone read in `localZone` (upstream's process
 * zone, time.Local). Pure.
 */
import type { ApiObject, OwnerReference } from '../../api/object.js';
import type { CronSchedule } from '../../resources/cronjobs/cron-schedule.js';
import { nextActivation } from '../../resources/cronjobs/cron-next.js';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import { rfc3339InZone } from '../../resources/cronjobs/zone-clock.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';

/** Upstream nextScheduleDelta: requeues land 100 ms after the schedule time (clock skew). */
export const NEXT_SCHEDULE_DELTA_MS = 100;

/** The annotation a Job carries of its scheduled time (batchv1.CronJobScheduledTimestampAnnotation). */
export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** A CronJob's `status.active` entry (core/v1 ObjectReference). */
export type ActiveRef = NonNullable<NonNullable<CronJob['status']>['active']>[number];

/** Epoch ms of an RFC 3339 time, or undefined. */
export const msOf = (t: string | null | undefined): number | undefined => (t ? Date.parse(t) : undefined);

/** jobutil.FinishedCondition: `Complete` or `Failed` when that condition is True. */
export function finishedCondition(job: Job): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? [])
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  return undefined;
}

/** jobutil.IsJobFinished. */
export const isJobFinished = (job: Job) => finishedCondition(job) !== undefined;

/** jobutil.IsJobSucceeded: the Complete condition is True. */
export const isJobSucceeded = (job: Job) =>
  (job.status?.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True');

/** inActiveList: the active list holds a job of this uid. */
export const inActiveList = (cj: CronJob, uid: string | null | undefined) =>
  (cj.status?.active ?? []).some((r) => r.uid === uid);

/** inActiveListByName: the active list holds a job of this namespace and name. */
export const inActiveListByName = (cj: CronJob, namespace: string | null | undefined, name: string) =>
  (cj.status?.active ?? []).some((r) => r.name === name && r.namespace === namespace);

/** deleteFromActiveList (mutates `cj.status`). */
export function deleteFromActiveList(cj: CronJob, uid: string | null | undefined): void {
  cj.status = { ...cj.status, active: (cj.status?.active ?? []).filter((r) => r.uid !== uid) };
}

/** metav1.GetControllerOf. */
export const controllerRefOf = (obj: ApiObject): OwnerReference | undefined =>
  (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);

/** groupJobsByParent: jobs by the uid of their controlling CronJob; others are left out. */
export function groupJobsByParent(jobs: readonly Job[]): Map<string, Job[]> {
  const byParent = new Map<string, Job[]>();
  for (const job of jobs) {
    const ref = controllerRefOf(job);
    if (!ref || ref.kind !== 'CronJob') continue;
    byParent.set(ref.uid, [...(byParent.get(ref.uid) ?? []), job]);
  }
  return byParent;
}

/** How many schedule times were missed (upstream missedSchedulesType). */
export type MissedSchedules = 'none' | 'few' | 'many';

/** mostRecentScheduleTime's answer. */
export interface RecentSchedule {
  /** The last schedule time, else the creation time (later of it and now - deadline when asked). */
  readonly earliest: number;
  /** The most recent schedule time not after now, if any. */
  readonly mostRecent?: number;
  readonly missed: MissedSchedules;
  /** Set for a schedule that never fires twice a second apart (e.g. `59 23 31 2 *`). */
  readonly error?: string;
}

/** upstream mostRecentScheduleTime. */
export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  schedule: CronSchedule,
  includeStartingDeadlineSeconds: boolean,
  localZone?: string,
): RecentSchedule {
  const next = (t: number) => nextActivation(schedule, t, localZone);
  let earliest = msOf(cj.status?.lastScheduleTime) ?? msOf(cj.metadata.creationTimestamp) ?? 0;
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && deadline !== undefined && deadline !== null)
    earliest = Math.max(earliest, now - deadline * 1000);
  const t1 = next(earliest);
  const t2 = next(t1);
  if (now < t1) return { earliest, missed: 'none' };
  if (now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1)
    return { earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  const missedCount = Math.trunc(Math.trunc((now - t1) / 1000) / between) + 1;
  let mostRecent: number | undefined;
  const potentialEarliest = t1 + (missedCount - 2) * between * 1000;
  for (let t = next(potentialEarliest); t <= now; t = next(t)) mostRecent = t;
  const missed: MissedSchedules = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none';
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}

/** upstream nextScheduleTimeDuration: ms until the next schedule time after the most recent one, plus 100 ms. */
export function nextScheduleTimeDuration(cj: CronJob, now: number, schedule: CronSchedule, localZone?: string): number {
  const r = mostRecentScheduleTime(cj, now, schedule, false, localZone);
  const from = r.error ? now : (r.mostRecent ?? (r.missed === 'none' ? r.earliest : now));
  return nextActivation(schedule, from, localZone) + NEXT_SCHEDULE_DELTA_MS - now;
}

/**
 * upstream nextScheduleTime: the most recent unmet schedule time not after now (the starting
 * deadline counted), or undefined; `tooManyMissed` when over 100 were missed (the caller records
 * the TooManyMissedTimes warning), `error` as {@link mostRecentScheduleTime}'s.
 */
export function nextScheduleTime(
  cj: CronJob,
  now: number,
  schedule: CronSchedule,
  localZone?: string,
): { readonly time?: number; readonly tooManyMissed: boolean; readonly error?: string } {
  const r = mostRecentScheduleTime(cj, now, schedule, true, localZone);
  if (r.mostRecent === undefined || r.mostRecent > now) return { tooManyMissed: false, error: r.error };
  return { time: r.mostRecent, tooManyMissed: r.missed === 'many', error: r.error };
}

/** getJobName: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export const jobName = (cj: CronJob, scheduled: number) =>
  `${cj.metadata.name}-${Math.floor(Math.floor(scheduled / 1000) / 60)}`;

/**
 * getJobFromTemplate2: the Job for `scheduled`: the template's labels and annotations, the
 * scheduled-timestamp annotation (RFC 3339 in spec.timeZone, UTC without one), the template's
 * spec, and a controller reference to the CronJob.
 */
export function jobFromTemplate(cj: CronJob, scheduled: number): Job {
  const template = cj.spec?.jobTemplate;
  const annotations = {
    ...(template?.metadata?.annotations ?? {}),
    [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339InZone(cj.spec?.timeZone ?? 'UTC', scheduled),
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cj, scheduled),
      namespace: cj.metadata.namespace,
      labels: { ...(template?.metadata?.labels ?? {}) },
      annotations,
      creationTimestamp: new Date(scheduled).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: cj.metadata.name ?? '',
          uid: cj.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(template?.spec ?? {}),
  } as Job;
}

/** ref.GetReference of a Job: the ObjectReference status.active holds. */
export const jobRef = (job: Job): ActiveRef => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  name: job.metadata.name,
  namespace: job.metadata.namespace,
  uid: job.metadata.uid,
  resourceVersion: job.metadata.resourceVersion,
});

/** byJobStartTime: jobs with a start time first, earliest first, ties by name. */
export function byJobStartTime(a: Job, b: Job): number {
  const sa = msOf(a.status?.startTime);
  const sb = msOf(b.status?.startTime);
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa === sb)
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : a.metadata.name === b.metadata.name ? 0 : 1;
  return sa! - sb!;
}
