/**
 * One CronJob's reconciliation (upstream 1.33 pkg/controller/cronjob/cronjob_controllerv2.go
 * syncCronJob): note finished and vanished Jobs in the status, then, unless the CronJob is
 * being deleted, has an unknown time zone, is suspended or its schedule does not parse, start
 * the Job of the most recent unmet schedule time, within the starting deadline and as the
 * concurrency policy allows (Forbid skips while one runs, Replace deletes the running ones),
 * and say when to look again. Events carry upstream's reasons and messages.
 */
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import { CronError, parseStandardSchedule, type CronSchedule } from '../../resources/cronjobs/cron-schedule.js';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import { loadLocationError } from '../../resources/cronjobs/time-zone.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import {
  controllerRefOf,
  deleteFromActiveList,
  finishedCondition,
  inActiveList,
  inActiveListByName,
  isJobSucceeded,
  jobFromTemplate,
  jobName,
  jobRef,
  msOf,
  nextScheduleTime,
  nextScheduleTimeDuration,
} from './utils.js';

/** The reads and writes the controller makes (upstream jobControlInterface and cjControlInterface). */
export interface CronJobClient {
  /** A fresh (not cached) read of the CronJob. */
  getCronJob(namespace: string, name: string): Promise<CronJob>;
  /** A fresh read of a Job; throws ApiError 404 when it is gone. */
  getJob(namespace: string, name: string): Promise<Job>;
  /** Create the Job; throws ApiError 409 AlreadyExists, 403 for a terminating namespace, ... */
  createJob(namespace: string, job: Job): Promise<Job>;
  /** Delete the Job with propagationPolicy Background. */
  deleteJob(namespace: string, name: string): Promise<void>;
  /** Write `cj.status` through cronjobs/status. */
  updateStatus(cj: CronJob): Promise<CronJob>;
}

/** Records an Event about the CronJob being synced. */
export type CronJobRecorder = (type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** What a sync needs: the client, the recorder, the clock (epoch ms) and the local zone. */
export interface CronJobSyncContext {
  readonly client: CronJobClient;
  readonly record: CronJobRecorder;
  readonly now: () => number;
  /** Zone of schedules without TZ= (upstream's process zone); default the process's. */
  readonly localZone?: string;
}

/** syncCronJob's answer: when to sync again, whether the status changed, and the error to retry on. */
export interface CronJobSyncResult {
  readonly requeueAfterMs?: number;
  readonly updateStatus: boolean;
  readonly error?: unknown;
}

const isNotFound = (err: unknown) => err instanceof ApiError && err.code === 404;
const isAlreadyExists = (err: unknown) => err instanceof ApiError && err.reason === 'AlreadyExists';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `t.UTC().Format(time.RFC1123Z)`: `Thu, 19 May 2016 10:00:00 +0000`. */
export function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/**
 * upstream formatSchedule: the schedule with `TZ=<spec.timeZone>` before it when the zone
 * loads; a schedule naming TZ itself is kept, with an UnsupportedSchedule warning when `record`
 * is given.
 */
export function formatSchedule(cj: CronJob, record?: CronJobRecorder): string {
  const schedule = cj.spec?.schedule ?? '';
  if (schedule.includes('TZ')) {
    record?.(
      'Warning',
      'UnsupportedSchedule',
      `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    );
    return schedule;
  }
  const zone = cj.spec?.timeZone;
  if (zone === undefined || zone === null || loadLocationError(zone)) return schedule;
  return `TZ=${zone} ${schedule}`;
}

/** Note the Jobs in the status (upstream syncCronJob's first half); answers whether it changed. */
async function noteJobs(cj: CronJob, jobs: readonly Job[], ctx: CronJobSyncContext): Promise<boolean> {
  const { client, record } = ctx;
  const namespace = cj.metadata.namespace ?? '';
  let updateStatus = false;
  const children = new Set(jobs.map((j) => j.metadata.uid));
  for (const job of jobs) {
    const found = inActiveList(cj, job.metadata.uid);
    const finished = finishedCondition(job);
    if (!found && !finished) {
      const fresh = await client.getCronJob(namespace, cj.metadata.name ?? '');
      const ref = (fresh.status?.active ?? []).find((r) => r.uid === job.metadata.uid);
      if (ref) {
        // The cached CronJob lags its own status write: take the reference the fresh one has.
        cj.status = { ...cj.status, active: [...(cj.status?.active ?? []), ref] };
        continue;
      }
      record(
        'Warning',
        'UnexpectedJob',
        `Saw a job that the controller did not create or forgot: ${job.metadata.name}`,
      );
    } else if (finished) {
      if (found) {
        deleteFromActiveList(cj, job.metadata.uid);
        record('Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, condition: ${finished}`);
        updateStatus = true;
      }
      const completed = job.status?.completionTime;
      if (isJobSucceeded(job) && completed) {
        const last = msOf(cj.status?.lastSuccessfulTime);
        if (last === undefined || msOf(completed)! > last) {
          cj.status = { ...cj.status, lastSuccessfulTime: completed };
          updateStatus = true;
        }
      }
    }
  }
  for (const ref of [...(cj.status?.active ?? [])]) {
    if (children.has(ref.uid)) continue;
    try {
      await client.getJob(ref.namespace ?? namespace, ref.name ?? '');
    } catch (err) {
      if (!isNotFound(err)) throw err;
      record('Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
      deleteFromActiveList(cj, ref.uid);
      updateStatus = true;
    }
  }
  return updateStatus;
}

/**
 * upstream syncCronJob on `cj` (a copy it changes) and the Jobs it controls. Never throws: a
 * failed read or write is the result's `error`, with what the status gained so far.
 */
export async function syncCronJob(
  cj: CronJob,
  jobs: readonly Job[],
  ctx: CronJobSyncContext,
): Promise<CronJobSyncResult> {
  let updateStatus = false;
  try {
    updateStatus = await noteJobs(cj, jobs, ctx);
    return await startDue(cj, ctx, updateStatus);
  } catch (err) {
    return { updateStatus, error: err };
  }
}

/** The second half of syncCronJob: start the Job of the most recent unmet schedule time. */
async function startDue(cj: CronJob, ctx: CronJobSyncContext, noted: boolean): Promise<CronJobSyncResult> {
  const { client, record, localZone } = ctx;
  const now = ctx.now();
  let updateStatus = noted;
  const spec = cj.spec ?? {};
  if (cj.metadata.deletionTimestamp) return { updateStatus };
  if (spec.timeZone !== undefined && spec.timeZone !== null) {
    const bad = loadLocationError(spec.timeZone);
    if (bad) {
      record('Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(spec.timeZone)}: ${bad}`);
      return { updateStatus };
    }
  }
  if (spec.suspend) return { updateStatus };
  let sched: CronSchedule;
  try {
    sched = parseStandardSchedule(formatSchedule(cj, record));
  } catch (err) {
    if (!(err instanceof CronError)) throw err;
    record('Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${err.message}`);
    return { updateStatus };
  }
  const requeue = () => ({ requeueAfterMs: nextScheduleTimeDuration(cj, now, sched, localZone), updateStatus });
  const due = nextScheduleTime(cj, now, sched, localZone);
  if (due.tooManyMissed)
    record(
      'Warning',
      'TooManyMissedTimes',
      'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    );
  if (due.error) {
    record('Warning', 'InvalidSchedule', `invalid schedule: ${spec.schedule} : ${due.error}`);
    return { updateStatus };
  }
  const scheduled = due.time;
  if (scheduled === undefined) return requeue();
  const deadline = spec.startingDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && scheduled + deadline * 1000 < now) {
    record('Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
    return requeue();
  }
  const name = jobName(cj, scheduled);
  if (inActiveListByName(cj, cj.metadata.namespace, name) || msOf(cj.status?.lastScheduleTime) === scheduled)
    return requeue();
  const active = cj.status?.active ?? [];
  if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    record(
      'Normal',
      'JobAlreadyActive',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    );
    return requeue();
  }
  if (spec.concurrencyPolicy === 'Replace') {
    for (const ref of active) {
      let job: Job;
      try {
        job = await client.getJob(ref.namespace ?? '', ref.name ?? '');
      } catch (err) {
        record('Warning', 'FailedGet', `Get job: ${errorMessage(err)}`);
        return { updateStatus, error: err };
      }
      if (!(await deleteJob(cj, job, ctx)))
        return {
          updateStatus,
          error: new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`),
        };
      updateStatus = true;
    }
  }
  const request = jobFromTemplate(cj, scheduled);
  const namespace = cj.metadata.namespace ?? '';
  let created: Job;
  try {
    created = await client.createJob(namespace, request);
    record('Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
  } catch (err) {
    if (namespaceTerminating(err)) return { updateStatus, error: err };
    if (!isAlreadyExists(err)) {
      record('Warning', 'FailedCreate', `Error creating job: ${errorMessage(err)}`);
      return { updateStatus, error: err };
    }
    // Created before by us (the status write was lost) or by someone else.
    created = await client.getJob(namespace, name);
    const ref = controllerRefOf(created);
    if (!ref || ref.uid !== cj.metadata.uid || inActiveList(cj, created.metadata.uid)) return { updateStatus };
  }
  cj.status = {
    ...cj.status,
    active: [...(cj.status?.active ?? []), jobRef(created)],
    lastScheduleTime: new Date(scheduled).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  updateStatus = true;
  return requeue();
}

/** upstream deleteJob: delete the Job and drop it from the active list; false (and a warning) when the delete fails. */
export async function deleteJob(cj: CronJob, job: Job, ctx: CronJobSyncContext): Promise<boolean> {
  try {
    await ctx.client.deleteJob(job.metadata.namespace ?? '', job.metadata.name ?? '');
  } catch (err) {
    ctx.record('Warning', 'FailedDelete', `Deleted job: ${errorMessage(err)}`);
    return false;
  }
  deleteFromActiveList(cj, job.metadata.uid);
  ctx.record('Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
  return true;
}
