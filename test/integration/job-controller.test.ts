/**
 * The Job and TTL-after-finished controllers (src/controllers/job/, ttl-after-finished/) on a
 * server with two simulated nodes, seen through the API as a user sees them: a Job of
 * completions 3 and parallelism 2 runs its pods (labelled, owned, with the tracking finalizer,
 * removed once counted) to Complete with succeeded 3 and its Events; a Job whose pods exit 1
 * ends Failed with BackoffLimitExceeded; a FailJob rule of a podFailurePolicy fails a Job at
 * once; an Indexed Job gives each index a pod and reports completedIndexes; suspending deletes
 * the pods and resuming creates them again; activeDeadlineSeconds ends a Job DeadlineExceeded;
 * a finished Job with ttlSecondsAfterFinished 0 is deleted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { JobController } from '../../src/controllers/job/controller.js';
import { TtlAfterFinishedController } from '../../src/controllers/ttl-after-finished/controller.js';
import { useTestServer } from '../helpers/in-process.js';

// The server's own job/ttl-after-finished controller is left out: the test runs one with a short resync.
const srv = useTestServer({ simulatedNodes: 2, controllers: ['*', '-job', '-ttl-after-finished'] });
const NS = 'job-controller';
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const controllers: { start(): void; stop(): void }[] = [];

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  const logger = pino({ level: 'silent' });
  controllers.push(new JobController(srv.running.deps.registry, logger, { resyncMs: 5_000 }));
  controllers.push(new TtlAfterFinishedController(srv.running.deps.registry, logger, { resyncMs: 5_000 }));
  for (const c of controllers) c.start();
});

afterAll(() => {
  for (const c of controllers) c.stop();
});

const job = (name: string, spec: object, annotations: Record<string, string> = {}) => ({
  metadata: { name },
  spec: {
    ...spec,
    template: {
      metadata: { annotations },
      spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'busybox' }] },
    },
  },
});
const MERGE = { 'content-type': 'application/merge-patch+json' };
const LONG_RUNNING = { 'sim.ck.io/run-seconds': '120' };

/** Wait until `check` holds for the job; returns the job. */
async function waitJob(name: string, check: (job: any) => void, timeout = 15_000) {
  return vi.waitFor(
    async () => {
      const got = (await srv.api('GET', `${JOBS}/${name}`)).body;
      check(got);
      return got;
    },
    { timeout, interval: 200 },
  );
}

async function create(body: object): Promise<{ metadata: { uid: string } }> {
  const res = await srv.api('POST', JOBS, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Wait until the job has a condition of `type` with status True; returns the job. */
async function waitCondition(name: string, type: string, timeout = 15_000) {
  return vi.waitFor(
    async () => {
      const got = await srv.api('GET', `${JOBS}/${name}`);
      const cond = (got.body.status?.conditions ?? []).find((c: { type: string }) => c.type === type);
      expect(cond?.status, JSON.stringify(got.body.status)).toBe('True');
      return got.body;
    },
    { timeout, interval: 200 },
  );
}

describe('the Job controller', () => {
  it('runs completions 3 with parallelism 2 to Complete', async () => {
    const created = await create(job('three', { completions: 3, parallelism: 2 }));
    const first = await vi.waitFor(
      async () => {
        const pods = (await srv.api('GET', `${PODS}?labelSelector=batch.kubernetes.io/job-name%3Dthree`)).body.items;
        expect(pods.length).toBeGreaterThan(0);
        return pods[0];
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(first.metadata.generateName).toBe('three-');
    expect(first.metadata.labels['batch.kubernetes.io/controller-uid']).toBe(created.metadata.uid);
    expect(first.metadata.labels['controller-uid']).toBe(created.metadata.uid);
    expect(first.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Job', name: 'three', uid: created.metadata.uid, controller: true }),
    ]);
    const done = await waitCondition('three', 'Complete');
    expect(done.status).toMatchObject({ succeeded: 3, active: 0 });
    expect(done.status.failed ?? 0).toBe(0);
    expect(done.status.completionTime).toBeTruthy();
    expect(done.status.conditions.map((c: { type: string; reason: string }) => `${c.type}/${c.reason}`)).toEqual([
      'SuccessCriteriaMet/CompletionsReached',
      'Complete/CompletionsReached',
    ]);
    const pods = (await srv.api('GET', `${PODS}?labelSelector=batch.kubernetes.io/job-name%3Dthree`)).body.items;
    expect(pods.filter((p: { status: { phase: string } }) => p.status.phase === 'Succeeded')).toHaveLength(3);
    for (const p of pods) expect(p.metadata.finalizers ?? []).not.toContain('batch.kubernetes.io/job-tracking');
    const events = (await srv.api('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3Dthree`))
      .body.items as { reason: string; source: { component: string } }[];
    expect(events.map((e) => e.reason)).toEqual(expect.arrayContaining(['SuccessfulCreate', 'Completed']));
    expect(events[0]!.source.component).toBe('job-controller');
  }, 20_000);

  it('fails a Job whose pods exit 1 past backoffLimit 1', async () => {
    await create(job('failing', { completions: 2, parallelism: 2, backoffLimit: 1 }, { 'sim.ck.io/exit-code': '1' }));
    const failed = await waitCondition('failing', 'Failed');
    const failedCond = failed.status.conditions.find((c: { type: string }) => c.type === 'Failed');
    expect(failedCond).toMatchObject({
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(failed.status.conditions.map((c: { type: string }) => c.type)).toContain('FailureTarget');
    expect(failed.status.failed).toBe(2);
  }, 20_000);

  it('fails a Job at once when a pod exit code matches a FailJob rule of its podFailurePolicy', async () => {
    const policy = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] };
    await create(job('policy', { backoffLimit: 6, podFailurePolicy: policy }, { 'sim.ck.io/exit-code': '3' }));
    const failed = await waitCondition('policy', 'Failed');
    const cond = failed.status.conditions.find((c: { type: string }) => c.type === 'Failed');
    expect(cond.reason).toBe('PodFailurePolicy');
    expect(cond.message).toMatch(
      new RegExp(`^Container c for pod ${NS}/policy-\\w+ failed with exit code 3 matching FailJob rule at index 0$`),
    );
    expect(failed.status.failed).toBe(1);
  }, 20_000);

  it('gives an Indexed Job one pod per index and reports completedIndexes', async () => {
    await create(job('indexed', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    const pods = await vi.waitFor(
      async () => {
        const items = (await srv.api('GET', `${PODS}?labelSelector=batch.kubernetes.io/job-name%3Dindexed`)).body.items;
        expect(items).toHaveLength(3);
        return items as {
          metadata: { annotations: Record<string, string>; labels: Record<string, string> };
          spec: { hostname: string };
        }[];
      },
      { timeout: 10_000, interval: 100 },
    );
    const indexes = pods.map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']).sort();
    expect(indexes).toEqual(['0', '1', '2']);
    for (const p of pods) {
      const ix = p.metadata.annotations['batch.kubernetes.io/job-completion-index'];
      expect(p.metadata.labels['batch.kubernetes.io/job-completion-index']).toBe(ix);
      expect(p.spec.hostname).toBe(`indexed-${ix}`);
    }
    const done = await waitCondition('indexed', 'Complete');
    expect(done.status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
  }, 20_000);
});

describe('suspend and activeDeadlineSeconds', () => {
  it('deletes the pods of a suspended Job and creates them again on resume', async () => {
    await create(job('paused', { completions: 2, parallelism: 2 }, LONG_RUNNING));
    await waitJob('paused', (j) => expect(j.status?.ready).toBe(2));
    expect((await srv.api('PATCH', `${JOBS}/paused`, { spec: { suspend: true } }, MERGE)).status).toBe(200);
    const suspended = await waitJob('paused', (j) => {
      expect(j.status.conditions).toEqual([
        expect.objectContaining({
          type: 'Suspended',
          status: 'True',
          reason: 'JobSuspended',
          message: 'Job suspended',
        }),
      ]);
      expect(j.status.active ?? 0).toBe(0);
    });
    expect(suspended.status.startTime).toBeUndefined();
    expect((await srv.api('PATCH', `${JOBS}/paused`, { spec: { suspend: false } }, MERGE)).status).toBe(200);
    const resumed = await waitJob('paused', (j) => {
      expect(j.status.conditions).toEqual([
        expect.objectContaining({ type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' }),
      ]);
      expect(j.status.ready).toBe(2);
    });
    expect(resumed.status.startTime).toBeTruthy();
  }, 20_000);

  it('fails a Job active longer than activeDeadlineSeconds', async () => {
    await create(job('deadline', { activeDeadlineSeconds: 1 }, LONG_RUNNING));
    const failed = await waitCondition('deadline', 'Failed');
    expect(failed.status.conditions.find((c: { type: string }) => c.type === 'Failed')).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    });
    expect(failed.status.active ?? 0).toBe(0);
    const pods = (await srv.api('GET', `${PODS}?labelSelector=batch.kubernetes.io/job-name%3Ddeadline`)).body.items;
    expect(pods).toEqual([]);
  }, 20_000);
});

describe('the TTL-after-finished controller', () => {
  it('deletes a finished Job with ttlSecondsAfterFinished 0', async () => {
    await create(job('short-lived', { ttlSecondsAfterFinished: 0 }));
    await vi.waitFor(async () => expect((await srv.api('GET', `${JOBS}/short-lived`)).status).toBe(404), {
      timeout: 15_000,
      interval: 200,
    });
  }, 20_000);
});
