/**
 * The CronJob controller (src/controllers/cronjob/) on an in-process server, seen through the
 * API as a user sees them, with its clock moved by the test: an every-minute CronJob creates its
 * Job (owned, named by the schedule minute, with the template's labels and the
 * scheduled-timestamp annotation) once the minute comes and records it in status.active and
 * lastScheduleTime; with Forbid it skips the next minute while that Job runs, notes the Job's
 * completion (lastSuccessfulTime) and then starts the skipped minute's Job (no starting
 * deadline); Replace deletes the running Job and starts the new one; the history limits delete
 * the oldest finished Jobs. Jobs are marked finished by writing their status through jobs/status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { CronJobController } from '../../src/controllers/cronjob/controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'cronjob-controller';
const CJ = `/apis/batch/v1/namespaces/${NS}/cronjobs`;
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
let clock = Date.now();
let controller: CronJobController;

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  controller = new CronJobController(srv.running.deps.registry, pino({ level: 'silent' }), {
    now: () => clock,
    localZone: 'UTC',
    resyncMs: 200,
  });
  controller.start();
});

afterAll(() => controller.stop());

const jobSpec = { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } };

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const jobsOf = async (cronJob: string) =>
  ((await srv.api('GET', JOBS)).body.items as any[]).filter((j) => j.metadata.ownerReferences?.[0]?.name === cronJob);
const eventsOf = async (cronJob: string) =>
  ((await srv.api('GET', `/api/v1/namespaces/${NS}/events`)).body.items as any[]).filter(
    (e) => e.involvedObject.name === cronJob,
  );

/** Mark a Job finished (`Complete` or `Failed`) through jobs/status, as the job controller would. */
async function finish(name: string, type: 'Complete' | 'Failed', startTime: string) {
  const job = (await srv.api('GET', `${JOBS}/${name}`)).body;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const conditions =
    type === 'Complete'
      ? [
          { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: now, lastProbeTime: now },
          { type: 'Complete', status: 'True', lastTransitionTime: now, lastProbeTime: now },
        ]
      : [
          { type: 'FailureTarget', status: 'True', lastTransitionTime: now, lastProbeTime: now },
          { type: 'Failed', status: 'True', lastTransitionTime: now, lastProbeTime: now },
        ];
  const status = {
    startTime,
    conditions,
    ...(type === 'Complete' ? { succeeded: 1, completionTime: now } : { failed: 1 }),
  };
  const res = await srv.api('PUT', `${JOBS}/${name}/status`, { ...job, status });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('CronJob controller', () => {
  it('creates the Job at the schedule time, skips while it runs under Forbid, and starts the next once it finished', async () => {
    const res = await srv.api('POST', CJ, {
      metadata: { name: 'minutely' },
      spec: {
        schedule: '*/1 * * * *',
        concurrencyPolicy: 'Forbid',
        jobTemplate: { metadata: { labels: { app: 'minutely' }, annotations: { note: 'x' } }, spec: jobSpec },
      },
    });
    expect(res.status).toBe(201);
    const created = Date.parse(res.body.metadata.creationTimestamp);
    const minute = Math.floor(created / 60_000) * 60_000 + 60_000;
    expect(await jobsOf('minutely')).toHaveLength(0);

    clock = minute + 1_000;
    const [job] = await until('the first Job', async () => {
      const jobs = await jobsOf('minutely');
      return jobs.length ? jobs : undefined;
    });
    expect(job.metadata.name).toBe(`minutely-${minute / 60_000}`);
    expect(job.metadata.labels).toMatchObject({ app: 'minutely' });
    expect(job.metadata.annotations).toMatchObject({
      note: 'x',
      'batch.kubernetes.io/cronjob-scheduled-timestamp': new Date(minute).toISOString().replace('.000Z', 'Z'),
    });
    expect(job.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'CronJob', name: 'minutely', uid: res.body.metadata.uid, controller: true }),
    ]);
    const status = await until('status.active', async () => {
      const cj = (await srv.api('GET', `${CJ}/minutely`)).body;
      return cj.status?.active?.length ? cj.status : undefined;
    });
    expect(status.active).toEqual([
      expect.objectContaining({ kind: 'Job', name: job.metadata.name, uid: job.metadata.uid }),
    ]);
    expect(Date.parse(status.lastScheduleTime)).toBe(minute);

    clock = minute + 61_000;
    await until('the JobAlreadyActive event', async () =>
      (await eventsOf('minutely')).find((e) => e.reason === 'JobAlreadyActive'),
    );
    expect(await jobsOf('minutely')).toHaveLength(1);

    await finish(job.metadata.name, 'Complete', new Date(Date.now() - 2_000).toISOString().replace(/\.\d+Z$/, 'Z'));
    // The skipped minute is still the most recent unmet time (no startingDeadlineSeconds): it starts now.
    const names = await until('the next Job', async () => {
      const jobs = (await jobsOf('minutely')).map((j) => j.metadata.name);
      return jobs.length === 2 ? jobs : undefined;
    });
    expect(names.sort()).toEqual([`minutely-${minute / 60_000}`, `minutely-${minute / 60_000 + 1}`]);
    const after = await until('the status', async () => {
      const cj = (await srv.api('GET', `${CJ}/minutely`)).body;
      return Date.parse(cj.status?.lastScheduleTime) === minute + 60_000 ? cj.status : undefined;
    });
    expect(after.lastSuccessfulTime).toBeDefined();
    expect(after.active.map((r: any) => r.name)).toEqual([`minutely-${minute / 60_000 + 1}`]);
    await until('the Events', async () => {
      const reasons = (await eventsOf('minutely')).map((e) => e.reason);
      return ['SuccessfulCreate', 'JobAlreadyActive', 'SawCompletedJob'].every((r) => reasons.includes(r)) || undefined;
    });
  });

  it('deletes the oldest finished Jobs beyond the history limits', async () => {
    const res = await srv.api('POST', CJ, {
      metadata: { name: 'history' },
      spec: {
        schedule: '0 0 1 1 *',
        successfulJobsHistoryLimit: 1,
        failedJobsHistoryLimit: 1,
        jobTemplate: { spec: jobSpec },
      },
    });
    expect(res.status).toBe(201);
    const owner = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      name: 'history',
      uid: res.body.metadata.uid,
      controller: true,
    };
    const finished: [string, 'Complete' | 'Failed', string][] = [
      ['history-ok-1', 'Complete', '2026-01-01T00:01:00Z'],
      ['history-ok-2', 'Complete', '2026-01-01T00:03:00Z'],
      ['history-ok-3', 'Complete', '2026-01-01T00:02:00Z'],
      ['history-bad-1', 'Failed', '2026-01-01T00:01:00Z'],
      ['history-bad-2', 'Failed', '2026-01-01T00:02:00Z'],
    ];
    for (const [name, type, start] of finished) {
      const made = await srv.api('POST', JOBS, { metadata: { name, ownerReferences: [owner] }, spec: jobSpec });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await finish(name, type, start);
    }
    const left = await until('the history limits applied', async () => {
      const jobs = (await jobsOf('history')).map((j) => j.metadata.name).sort();
      return jobs.length === 2 ? jobs : undefined;
    });
    expect(left).toEqual(['history-bad-2', 'history-ok-2']);
    const deleted = await until('the SuccessfulDelete Events', async () => {
      const got = (await eventsOf('history')).filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message);
      return got.length >= 3 ? got : undefined;
    });
    expect(deleted.sort()).toEqual([
      'Deleted job history-bad-1',
      'Deleted job history-ok-1',
      'Deleted job history-ok-3',
    ]);
  });

  it('replaces the running Job under Replace: deletes it and starts the new one', async () => {
    clock = Date.now(); // nothing of this CronJob is due before its first minute
    const res = await srv.api('POST', CJ, {
      metadata: { name: 'replace' },
      spec: { schedule: '*/1 * * * *', concurrencyPolicy: 'Replace', jobTemplate: { spec: jobSpec } },
    });
    expect(res.status).toBe(201);
    const minute = Math.floor(Date.parse(res.body.metadata.creationTimestamp) / 60_000) * 60_000 + 60_000;
    clock = minute + 1_000;
    await until('the first Job', async () => ((await jobsOf('replace')).length ? true : undefined));
    clock = minute + 61_000;
    const names = await until('the replacement', async () => {
      const jobs = (await jobsOf('replace')).map((j) => j.metadata.name);
      return jobs.length === 1 && jobs[0] !== `replace-${minute / 60_000}` ? jobs : undefined;
    });
    expect(names).toEqual([`replace-${minute / 60_000 + 1}`]);
    const wanted = [
      `SuccessfulDelete: Deleted job replace-${minute / 60_000}`,
      `SuccessfulCreate: Created job replace-${minute / 60_000 + 1}`,
    ];
    await until('the Events', async () => {
      const messages = (await eventsOf('replace')).map((e) => `${e.reason}: ${e.message}`);
      return wanted.every((m) => messages.includes(m)) ? true : undefined;
    });
  });
});
