/**
 * Ports of upstream 1.33 pkg/controller/cronjob/utils_test.go: TestGetJobFromTemplate2,
 * TestNextScheduleTime, TestByJobStartTime, TestMostRecentScheduleTime,
 * TestNextScheduleTimeDuration, and the older TestGroupJobsByParent.
 */
import { describe, expect, it } from 'vitest';
import { parseStandardSchedule } from '../../resources/cronjobs/cron-schedule.js';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { HOUR, MINUTE, SECOND, iso, topOfTheHour } from './fake-client.fixture.js';
import * as U from './utils.js';

const after = (d: number) => topOfTheHour + d;
const cj = (schedule: string, created: number, last?: number, deadline?: number): CronJob =>
  ({
    metadata: { name: 'mycronjob', namespace: 'default', uid: '1a2b3c', creationTimestamp: iso(created) },
    spec: { schedule, ...(deadline === undefined ? {} : { startingDeadlineSeconds: deadline }) },
    ...(last === undefined ? {} : { status: { lastScheduleTime: iso(last) } }),
  }) as CronJob;
const recent = (c: CronJob, now: number, sds = false) =>
  U.mostRecentScheduleTime(c, now, parseStandardSchedule(c.spec!.schedule!), sds, 'UTC');

describe('upstream TestGetJobFromTemplate2', () => {
  const base = {
    metadata: { name: 'mycronjob', namespace: 'snazzycats', uid: '1a2b3c' },
    spec: {
      schedule: '* * * * ?',
      jobTemplate: { metadata: { labels: { a: 'b' } }, spec: { activeDeadlineSeconds: 1, manualSelector: false } },
    },
  } as CronJob;
  it.each([
    ['UTC timezone and one annotation', 'UTC', { x: 'y' }, '2016-05-19T10:00:00Z', 2],
    ['nil timezone and one annotation', undefined, { x: 'y' }, '2016-05-19T10:00:00Z', 2],
    ['correct timezone and multiple annotation', 'Europe/Rome', { x: 'y', z: 'x' }, '2016-05-19T12:00:00+02:00', 3],
  ])('%s', (_name, zone, annotations, stamp, count) => {
    const c = structuredClone(base);
    c.spec!.jobTemplate!.metadata = { ...c.spec!.jobTemplate!.metadata, annotations };
    if (zone) c.spec!.timeZone = zone;
    const job = U.jobFromTemplate(c, topOfTheHour);
    expect(job.metadata.name).toBe(`mycronjob-${topOfTheHour / MINUTE}`);
    expect(job.metadata.labels).toEqual({ a: 'b' });
    expect(Object.keys(job.metadata.annotations ?? {})).toHaveLength(count);
    expect(job.metadata.annotations?.[U.SCHEDULED_TIMESTAMP_ANNOTATION]).toBe(stamp);
    expect(job.spec).toEqual({ activeDeadlineSeconds: 1, manualSelector: false });
  });
});

describe('upstream TestNextScheduleTime', () => {
  const T1 = topOfTheHour;
  const T2 = after(HOUR);
  const next = (c: CronJob, now: number, schedule = '0 * * * ?') =>
    U.nextScheduleTime(c, now, parseStandardSchedule(schedule), 'UTC');
  it('case 1: no known start times, and none needed yet', () => {
    expect(next(cj('0 * * * ?', T1 - 10 * MINUTE), T1 - 7 * MINUTE).time).toBeUndefined();
  });
  it('case 2: no known start times, and one needed', () => {
    expect(next(cj('0 * * * ?', T1 - 10 * MINUTE), T1 + 2 * SECOND).time).toBe(T1);
  });
  it('case 3: known LastScheduleTime, no start needed', () => {
    expect(next(cj('0 * * * ?', T1 - 10 * MINUTE, T1), T1 + 2 * MINUTE).time).toBeUndefined();
  });
  it('case 4: known LastScheduleTime, a start needed', () => {
    expect(next(cj('0 * * * ?', T1 - 10 * MINUTE, T1), T2 + 5 * MINUTE).time).toBe(T2);
  });
  it('case 5: known LastScheduleTime, two starts needed', () => {
    expect(next(cj('0 * * * ?', T1 - 2 * HOUR, T1 - HOUR), T2 + 5 * MINUTE).time).toBe(T2);
  });
  it('case 6: now is way way ahead of last start time, and there is no deadline', () => {
    expect(next(cj('0 * * * ?', T1 - 2 * HOUR, T1 - HOUR), T2 + 240 * HOUR).time).toBeDefined();
  });
  it('case 7: now is way way ahead of last start time, but there is a short deadline', () => {
    expect(next(cj('0 * * * ?', T1 - 2 * HOUR, T1 - HOUR, 2 * 60 * 60), T2 + 240 * HOUR).time).toBeDefined();
  });
  it('case 8: the error of mostRecentScheduleTime is passed up', () => {
    const got = next(cj('0 * * * ?', T1 + 10 * SECOND), after(HOUR), '59 23 31 2 *');
    expect(got.time).toBeUndefined();
    expect(got.error).toBe('time difference between two schedules is less than 1 second');
  });
});

describe('upstream TestByJobStartTime', () => {
  const job = (name: string, start?: string) =>
    ({ metadata: { name }, status: start ? { startTime: start } : {} }) as Job;
  const now = '2018-01-01T02:03:04Z';
  const later = '2019-01-01T02:03:04Z';
  const [aNil, bNil, aSet, bSet, aLater] = [job('a'), job('b'), job('a', now), job('b', now), job('a', later)];
  it.each([
    ['both have nil start times', [bNil, aNil], [aNil, bNil]],
    ['only the first has a nil start time', [aNil, bSet], [bSet, aNil]],
    ['only the second has a nil start time', [aSet, bNil], [aSet, bNil]],
    ['both have non-nil, equal start time', [bSet, aSet], [aSet, bSet]],
    ['both have non-nil, different start time', [aLater, bSet], [bSet, aLater]],
  ])('%s', (_name, input, expected) => {
    expect([...input].sort(U.byJobStartTime)).toEqual(expected);
  });
});

describe('upstream TestMostRecentScheduleTime', () => {
  const cases: [string, CronJob, number, number, number | undefined, U.MissedSchedules, boolean?][] = [
    ['now before next schedule', cj('0 * * * *', topOfTheHour), after(30 * SECOND), topOfTheHour, undefined, 'none'],
    [
      'now just after next schedule',
      cj('0 * * * *', topOfTheHour),
      after(61 * MINUTE),
      topOfTheHour,
      after(HOUR),
      'none',
    ],
    [
      'missed 5 schedules',
      cj('0 * * * *', after(10 * SECOND)),
      after(301 * MINUTE),
      after(10 * SECOND),
      after(300 * MINUTE),
      'few',
    ],
    [
      'complex schedule',
      cj('30 6-16/4 * * 1-5', topOfTheHour, after(30 * MINUTE)),
      after(24 * HOUR + 31 * MINUTE),
      after(30 * MINUTE),
      after(24 * HOUR + 30 * MINUTE),
      'few',
    ],
    [
      'another complex schedule',
      cj('30 10,11,12 * * 1-5', topOfTheHour, after(30 * MINUTE)),
      after(30 * HOUR + 30 * MINUTE),
      after(30 * MINUTE),
      undefined,
      'few',
    ],
    [
      'complex schedule with longer diff between executions',
      cj('30 6-16/4 * * 1-5', topOfTheHour, after(30 * MINUTE)),
      after(96 * HOUR + 31 * MINUTE),
      after(30 * MINUTE),
      after(96 * HOUR + 30 * MINUTE),
      'few',
    ],
    [
      'complex schedule with shorter diff between executions',
      cj('30 6-16/4 * * 1-5', topOfTheHour),
      after(24 * HOUR + 31 * MINUTE),
      topOfTheHour,
      after(24 * HOUR + 30 * MINUTE),
      'few',
    ],
    [
      '@every schedule',
      cj('@every 1h', after(-59 * MINUTE), after(MINUTE), 10),
      after(7 * 24 * HOUR),
      after(MINUTE),
      after(6 * 24 * HOUR + 23 * HOUR + MINUTE),
      'many',
    ],
    [
      'earliestTime being CreationTimestamp and LastScheduleTime',
      cj('0 * * * *', topOfTheHour, topOfTheHour),
      after(30 * SECOND),
      topOfTheHour,
      undefined,
      'none',
    ],
    [
      'earliestTime being LastScheduleTime',
      cj('*/5 * * * *', topOfTheHour, after(30 * MINUTE)),
      after(31 * MINUTE),
      after(30 * MINUTE),
      undefined,
      'none',
    ],
    [
      'earliestTime being LastScheduleTime (within StartingDeadlineSeconds)',
      cj('*/5 * * * *', topOfTheHour, after(30 * MINUTE), 60),
      after(31 * MINUTE),
      after(30 * MINUTE),
      undefined,
      'none',
    ],
    [
      'earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)',
      cj('*/5 * * * *', topOfTheHour, after(30 * MINUTE), 60),
      after(32 * MINUTE),
      after(31 * MINUTE),
      undefined,
      'none',
      true,
    ],
  ];
  it.each(cases)('%s', (_name, c, now, earliest, mostRecent, missed, sds) => {
    const got = recent(c, now, sds);
    expect(got.error).toBeUndefined();
    expect(got.earliest).toBe(earliest);
    expect(got.mostRecent).toBe(mostRecent);
    expect(got.missed).toBe(missed);
  });
  it('rogue cronjob', () => {
    expect(recent(cj('59 23 31 2 *', after(10 * SECOND)), after(HOUR)).error).toBeDefined();
  });
});

describe('upstream TestNextScheduleTimeDuration', () => {
  const D = U.NEXT_SCHEDULE_DELTA_MS;
  it.each([
    [
      'complex schedule skipping weekend',
      cj('30 6-16/4 * * 1-5', topOfTheHour, after(30 * MINUTE)),
      after(24 * HOUR + 31 * MINUTE),
      3 * HOUR + 59 * MINUTE + D,
    ],
    [
      'another complex schedule skipping weekend',
      cj('30 10,11,12 * * 1-5', topOfTheHour, after(30 * MINUTE)),
      after(30 * HOUR + 30 * MINUTE),
      66 * HOUR + D,
    ],
    [
      'once a week cronjob, missed two runs',
      cj('0 12 * * 4', topOfTheHour, after(2 * HOUR)),
      after(19 * 24 * HOUR + HOUR + 30 * MINUTE),
      48 * HOUR + 30 * MINUTE + D,
    ],
    ['no previous run of a cronjob', cj('0 12 * * 5', topOfTheHour), after(6 * HOUR), 20 * HOUR + D],
  ])('%s', (_name, c, now, expected) => {
    expect(U.nextScheduleTimeDuration(c, now, parseStandardSchedule(c.spec!.schedule!), 'UTC')).toBe(expected);
  });
});

describe('upstream TestGroupJobsByParent', () => {
  const job = (name: string, owner?: { kind: string; uid: string }) =>
    ({
      metadata: {
        name,
        namespace: 'x',
        ownerReferences: owner ? [{ apiVersion: 'batch/v1', name: 'p', controller: true, ...owner }] : undefined,
      },
    }) as Job;
  it('groups jobs by the uid of their controlling CronJob and leaves others out', () => {
    const jobs = [
      job('a', { kind: 'CronJob', uid: '1' }),
      job('b', { kind: 'CronJob', uid: '2' }),
      job('c', { kind: 'CronJob', uid: '1' }),
    ];
    const grouped = U.groupJobsByParent([...jobs, job('orphan'), job('other', { kind: 'ReplicaSet', uid: '1' })]);
    expect([...grouped.keys()].sort()).toEqual(['1', '2']);
    expect(grouped.get('1')?.map((j) => j.metadata.name)).toEqual(['a', 'c']);
    expect(grouped.get('2')?.map((j) => j.metadata.name)).toEqual(['b']);
  });
});
