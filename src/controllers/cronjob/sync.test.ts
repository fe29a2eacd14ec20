/**
 * Port of upstream 1.33 cronjob_controllerv2_test.go TestControllerV2SyncCronJob: each row a
 * CronJob (policy, suspend, schedule, zone, deadline), whether a Job ran before and is still
 * active, the time now, and what syncCronJob must do: create, delete, active jobs, warnings,
 * the requeue delay and whether the status changed.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, alreadyExists } from '../../errors/api-error.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import * as T from './fake-client.fixture.js';
import { syncCronJob } from './sync.js';
import { jobFromTemplate, jobRef, NEXT_SCHEDULE_DELTA_MS as DELTA } from './utils.js';

const { HOUR, MINUTE, SECOND } = T;
const shortDead = 10;
const mediumDead = 2 * 60 * 60;
const longDead = 1000000;
const onTheHour = '0 * * * ?';
const everyHour = '@every 1h';

interface Row {
  policy: 'Allow' | 'Forbid' | 'Replace';
  suspend?: boolean;
  schedule: string;
  timeZone?: string;
  deadline?: number;
  ranPreviously?: boolean;
  stillActive?: boolean;
  cronjobCreationTime?: number;
  jobCreationTime: number;
  lastScheduleTime?: number;
  now: number;
  jobCreateError?: Error;
  jobGetErr?: Error;
  create?: boolean;
  del?: boolean;
  active?: number;
  warnings?: number;
  err?: boolean;
  requeue?: number;
  updateStatus?: boolean;
  notInLister?: boolean;
  inActiveStatus?: boolean;
}

const A = 'Allow' as const;
const F = 'Forbid' as const;
const R = 'Replace' as const;
const base = { jobCreationTime: T.justAfterThePriorHour, inActiveStatus: true };
const notTime = { ...base, now: T.justBeforeTheHour, requeue: MINUTE + DELTA };
const isTime = { ...base, now: T.justAfterTheHour, requeue: HOUR - MINUTE + DELTA };
const created = { create: true, active: 1, updateStatus: true };
const ran = { ranPreviously: true };
const running = { ranPreviously: true, stillActive: true, active: 1 };
const overdue = { ...base, ...ran, now: T.weekAfterTheHour, ...created, requeue: HOUR + DELTA };
const missing = {
  ...running,
  deadline: longDead,
  schedule: onTheHour,
  jobCreationTime: T.topOfTheHour + 100,
  now: T.justAfterTheHour + 100,
  requeue: HOUR - MINUTE - 100 + DELTA,
};
// A create refused because the namespace is terminating (upstream's NamespaceTerminatingCause).
const terminating = new ApiError(
  403,
  'Forbidden',
  'jobs.batch "x" is forbidden: unable to create new content in namespace snazzycats because it is being terminated',
);

// prettier-ignore
const rows: Record<string, Row> = {
  'never ran, not valid schedule, A': { ...base, policy: A, schedule: 'obvious error schedule', now: T.justBeforeTheHour, warnings: 1 },
  'never ran, not valid schedule, F': { ...base, policy: F, schedule: 'obvious error schedule', now: T.justBeforeTheHour, warnings: 1 },
  'never ran, not valid time zone': { ...base, policy: A, schedule: onTheHour, timeZone: 'bad timezone', now: T.justBeforeTheHour, warnings: 1 },
  'never ran, not time, A': { ...notTime, policy: A, schedule: onTheHour },
  'never ran, not time, F': { ...notTime, policy: F, schedule: onTheHour },
  'never ran, not time, R': { ...notTime, policy: R, schedule: onTheHour },
  'never ran, not time in zone': { ...notTime, policy: A, schedule: onTheHour, timeZone: 'America/New_York' },
  'never ran, is time, A': { ...isTime, ...created, policy: A, schedule: onTheHour },
  'never ran, is time, F': { ...isTime, ...created, policy: F, schedule: onTheHour },
  'never ran, is time, R': { ...isTime, ...created, policy: R, schedule: onTheHour },
  'never ran, is time in zone': { ...isTime, ...created, policy: A, schedule: onTheHour, timeZone: 'America/New_York' },
  'never ran, is time in zone, but TZ is also set in schedule': { ...isTime, ...created, policy: A, schedule: `TZ=UTC ${onTheHour}`, timeZone: 'America/New_York', warnings: 1 },
  'never ran, is time, suspended': { ...base, policy: A, suspend: true, schedule: onTheHour, now: T.justAfterTheHour },
  'never ran, is time, past deadline': { ...base, policy: A, schedule: onTheHour, deadline: shortDead, now: T.justAfterTheHour + (shortDead + 1) * MINUTE, requeue: HOUR - MINUTE - (shortDead + 1) * MINUTE + DELTA },
  'never ran, is time, not past deadline': { ...isTime, ...created, policy: A, schedule: onTheHour, deadline: longDead },
  'prev ran but done, not time, A': { ...notTime, ...ran, policy: A, schedule: onTheHour, updateStatus: true },
  'prev ran but done, not time, F': { ...notTime, ...ran, policy: F, schedule: onTheHour, updateStatus: true },
  'prev ran but done, not time, R': { ...notTime, ...ran, policy: R, schedule: onTheHour, updateStatus: true },
  'prev ran but done, is time, A': { ...isTime, ...ran, ...created, policy: A, schedule: onTheHour },
  'prev ran but done, is time, create job failed, A': { ...base, ...ran, policy: A, schedule: onTheHour, now: T.justAfterTheHour, jobCreateError: alreadyExists('job', '', 'batch'), updateStatus: true },
  'prev ran but done, is time, F': { ...isTime, ...ran, ...created, policy: F, schedule: onTheHour },
  'prev ran but done, is time, R': { ...isTime, ...ran, ...created, policy: R, schedule: onTheHour },
  'prev ran but done, is time, suspended': { ...base, ...ran, policy: A, suspend: true, schedule: onTheHour, now: T.justAfterTheHour, updateStatus: true },
  'prev ran but done, is time, past deadline': { ...isTime, ...ran, policy: A, schedule: onTheHour, deadline: shortDead, updateStatus: true },
  'prev ran but done, is time, not past deadline': { ...isTime, ...ran, ...created, policy: A, schedule: onTheHour, deadline: longDead },
  'still active, not time, A': { ...notTime, ...running, policy: A, schedule: onTheHour },
  'still active, not time, F': { ...notTime, ...running, policy: F, schedule: onTheHour },
  'still active, not time, R': { ...notTime, ...running, policy: R, schedule: onTheHour },
  'still active, is time, A': { ...isTime, ...running, ...created, active: 2, policy: A, schedule: onTheHour },
  'still active, is time, F': { ...isTime, ...running, policy: F, schedule: onTheHour },
  'still active, is time, R': { ...isTime, ...running, ...created, del: true, policy: R, schedule: onTheHour },
  'still active, is time, get job failed, R': { ...base, ...running, policy: R, schedule: onTheHour, now: T.justAfterTheHour, jobGetErr: new ApiError(400, 'BadRequest', 'request is invalid'), warnings: 1 },
  'still active, is time, suspended': { ...base, ...running, policy: A, suspend: true, schedule: onTheHour, now: T.justAfterTheHour },
  'still active, is time, past deadline': { ...isTime, ...running, policy: A, schedule: onTheHour, deadline: shortDead },
  'still active, is time, not past deadline': { ...isTime, ...running, ...created, active: 2, policy: A, schedule: onTheHour, deadline: longDead },
  'prev ran but done, long overdue, not past deadline, A': { ...overdue, policy: A, schedule: onTheHour, deadline: longDead, warnings: 1 },
  'prev ran but done, long overdue, not past deadline, R': { ...overdue, policy: R, schedule: onTheHour, deadline: longDead, warnings: 1 },
  'prev ran but done, long overdue, not past deadline, F': { ...overdue, policy: F, schedule: onTheHour, deadline: longDead, warnings: 1 },
  'prev ran but done, long overdue, no deadline, A': { ...overdue, policy: A, schedule: onTheHour, warnings: 1 },
  'prev ran but done, long overdue, no deadline, R': { ...overdue, policy: R, schedule: onTheHour, warnings: 1 },
  'prev ran but done, long overdue, no deadline, F': { ...overdue, policy: F, schedule: onTheHour, warnings: 1 },
  'prev ran but done, long overdue, past medium deadline, A': { ...overdue, policy: A, schedule: onTheHour, deadline: mediumDead },
  'prev ran but done, long overdue, past short deadline, A': { ...overdue, policy: A, schedule: onTheHour, deadline: shortDead },
  'prev ran but done, long overdue, past medium deadline, R': { ...overdue, policy: R, schedule: onTheHour, deadline: mediumDead },
  'prev ran but done, long overdue, past short deadline, R': { ...overdue, policy: R, schedule: onTheHour, deadline: shortDead },
  'prev ran but done, long overdue, past medium deadline, F': { ...overdue, policy: F, schedule: onTheHour, deadline: mediumDead },
  'prev ran but done, long overdue, past short deadline, F': { ...overdue, policy: F, schedule: onTheHour, deadline: shortDead },
  'this ran but done, time drifted back, F': { policy: F, schedule: onTheHour, ...ran, jobCreationTime: T.justAfterTheHour, now: T.justBeforeTheHour, jobCreateError: alreadyExists('jobs', '', 'batch'), requeue: MINUTE + DELTA, updateStatus: true },
  'this started but went missing, not past deadline, A': { ...missing, policy: A, notInLister: true, inActiveStatus: true },
  'this started but went missing, not past deadline, f': { ...missing, policy: F, notInLister: true, inActiveStatus: true },
  'this started but went missing, not past deadline, R': { ...missing, policy: R, notInLister: true, inActiveStatus: true },
  'this started but is not present in cronjob active list, not past deadline, A': { ...missing, policy: A },
  'this started but is not present in cronjob active list, not past deadline, f': { ...missing, policy: F },
  'this started but is not present in cronjob active list, not past deadline, R': { ...missing, policy: R },
  'with @every schedule, never ran, not time': { ...base, policy: A, schedule: everyHour, cronjobCreationTime: T.justBeforeTheHour, jobCreationTime: T.justBeforeTheHour, now: T.topOfTheHour, requeue: HOUR - MINUTE + DELTA },
  'with @every schedule, never ran, is time': { ...base, ...created, policy: A, schedule: everyHour, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, now: T.justBeforeTheHour, requeue: HOUR + DELTA },
  'with @every schedule, never ran, is time, past deadline': { ...base, policy: A, schedule: everyHour, deadline: shortDead, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, now: T.justBeforeTheHour + (shortDead + 1) * SECOND, requeue: HOUR - (shortDead + 1) * SECOND + DELTA },
  'with @every schedule, never ran, is time, not past deadline': { ...base, ...created, policy: A, schedule: everyHour, deadline: longDead, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, now: T.justBeforeTheHour + (shortDead - 1) * SECOND, requeue: HOUR - (shortDead - 1) * SECOND + DELTA },
  'with @every schedule, prev ran but done, not time': { ...base, ...ran, policy: A, schedule: everyHour, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, lastScheduleTime: T.justBeforeTheHour, now: T.topOfTheHour, requeue: HOUR - MINUTE + DELTA, updateStatus: true },
  'with @every schedule, prev ran but done, is time': { ...base, ...ran, ...created, policy: A, schedule: everyHour, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, lastScheduleTime: T.justBeforeTheHour, now: T.topOfTheHour + HOUR, requeue: HOUR - MINUTE + DELTA },
  'with @every schedule, prev ran but done, is time, past deadline': { ...base, ...ran, policy: A, schedule: everyHour, deadline: shortDead, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, lastScheduleTime: T.justBeforeTheHour, now: T.justBeforeTheNextHour + (shortDead + 1) * SECOND, requeue: HOUR - (shortDead + 1) * SECOND + DELTA, updateStatus: true },
  'with @every schedule, still active, not time': { ...base, ...running, policy: A, schedule: everyHour, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeTheHour, lastScheduleTime: T.justBeforeTheHour, now: T.topOfTheHour, requeue: HOUR - MINUTE + DELTA },
  'with @every schedule, still active, is time': { ...base, ...running, ...created, active: 2, policy: A, schedule: everyHour, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeThePriorHour, lastScheduleTime: T.justBeforeThePriorHour, now: T.justAfterTheHour, requeue: HOUR - 2 * MINUTE + DELTA },
  'with @every schedule, still active, is time, past deadline': { ...base, ...running, policy: A, schedule: everyHour, deadline: shortDead, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeTheHour, lastScheduleTime: T.justBeforeTheHour, now: T.justBeforeTheNextHour + (shortDead + 1) * SECOND, requeue: HOUR - (shortDead + 1) * SECOND + DELTA },
  'with @every schedule, still active, is time, not past deadline': { ...base, ...running, ...created, active: 2, policy: A, schedule: everyHour, deadline: longDead, cronjobCreationTime: T.justBeforeThePriorHour, jobCreationTime: T.justBeforeTheHour, lastScheduleTime: T.justBeforeTheHour, now: T.justBeforeTheNextHour + (shortDead - 1) * SECOND, requeue: HOUR - (shortDead - 1) * SECOND + DELTA },
  'with @every schedule, prev ran but done, long overdue, no deadline': { ...base, ...ran, ...created, policy: A, schedule: everyHour, cronjobCreationTime: T.justAfterThePriorHour, lastScheduleTime: T.justAfterTheHour, now: T.weekAfterTheHour, warnings: 1, requeue: MINUTE + DELTA },
  'with @every schedule, prev ran but done, long overdue, past deadline': { ...base, ...ran, policy: A, schedule: everyHour, deadline: shortDead, cronjobCreationTime: T.justAfterThePriorHour, lastScheduleTime: T.justAfterTheHour, now: T.weekAfterTheHour + MINUTE + (shortDead + 1) * SECOND, requeue: HOUR - (shortDead + 1) * SECOND + DELTA, updateStatus: true },
  'do nothing if the namespace is terminating': { policy: A, schedule: onTheHour, ...running, active: 0, jobCreationTime: T.justAfterThePriorHour, now: T.justAfterTheHour, jobCreateError: terminating, err: true },
};

describe('upstream TestControllerV2SyncCronJob', () => {
  it.each(Object.entries(rows))('%s', async (name, tc) => {
    const cj = T.cronJob();
    cj.spec = { ...cj.spec, concurrencyPolicy: tc.policy, suspend: tc.suspend ?? false, schedule: tc.schedule };
    if (tc.timeZone) cj.spec.timeZone = tc.timeZone;
    if (tc.deadline !== undefined) cj.spec.startingDeadlineSeconds = tc.deadline;
    const real = structuredClone(cj);
    const jobs: Job[] = [];
    let job: Job | undefined;
    if (tc.ranPreviously) {
      cj.metadata.creationTimestamp = T.iso(tc.cronjobCreationTime ?? T.justBeforeThePriorHour);
      cj.status = { lastScheduleTime: T.iso(tc.lastScheduleTime ?? T.justAfterThePriorHour) };
      job = jobFromTemplate(cj, tc.jobCreationTime);
      job.metadata.uid = '1234';
      if (tc.stillActive) {
        if (tc.inActiveStatus) cj.status.active = [jobRef(job)];
        real.status = { active: [jobRef(job)] };
      } else {
        job.status = {
          completionTime: T.iso(tc.jobCreationTime + 10 * SECOND),
          conditions: [{ type: 'Complete', status: 'True' }],
        };
      }
      if (!tc.notInLister) jobs.push(job);
    } else {
      cj.metadata.creationTimestamp = T.iso(tc.cronjobCreationTime ?? T.justBeforeTheHour);
    }
    const client = new T.FakeCronJobClient(real, job, tc.jobCreateError, tc.jobGetErr);
    const { events, record } = T.fakeRecorder();
    const copy = structuredClone(cj);
    const result = await syncCronJob(copy, jobs, { client, record, now: () => tc.now, localZone: 'UTC' });

    if (tc.err) expect(result.error).toBeDefined();
    if (tc.requeue !== undefined) expect(result.requeueAfterMs).toBe(tc.requeue);
    expect(result.updateStatus).toBe(tc.updateStatus ?? false);
    if (tc.ranPreviously && !tc.stillActive)
      expect(copy.status?.lastSuccessfulTime).toBe(T.iso(tc.jobCreationTime + 10 * SECOND));
    expect(client.created).toHaveLength(tc.create ? 1 : 0);
    for (const made of client.created)
      expect(made.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: 'mycronjob',
          uid: '1a2b3c',
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    expect(client.deleted).toHaveLength(tc.del ? 1 : 0);
    const expectedEvents =
      (tc.create ? 1 : 0) + (tc.del ? 1 : 0) + (tc.warnings ?? 0) + (name === 'still active, is time, F' ? 1 : 0);
    expect(events).toHaveLength(expectedEvents);
    expect(events.filter((e) => e.startsWith('Warning'))).toHaveLength(tc.warnings ?? 0);
    if (tc.updateStatus && !tc.jobCreateError) expect(copy.status?.active ?? []).toHaveLength(tc.active ?? 0);
  });
});
