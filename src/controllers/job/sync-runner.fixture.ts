/**
 * The runner of upstream 1.33 job_controller_test.go TestControllerSyncJob rows (ported in
 * sync.test.ts and sync-indexed.test.ts): a job of the row's shape and its pods (upstream
 * newJob, newPodList, setPodsStatuses, setPodsStatusesWithIndexes) on a FakeJobClient, one
 * syncJob, then upstream's checks: pods created and deleted, their controllerRef, index,
 * hostname and generateName, the status counters and conditions, and the pod patches. The
 * expectations are those of 1.33's default feature gates (JobPodReplacementPolicy, JobManagedBy,
 * JobSuccessPolicy on): `terminating` is always reported, and a finishing job first gets
 * FailureTarget / SuccessCriteriaMet.
 */
import { expect } from 'vitest';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { BackoffStore } from './backoff.js';
import { FinalizerExpectations, type JobSyncDeps } from './client.js';
import { FakeJobClient } from './fake-client.fixture.js';
import { COMPLETION_INDEX, completionIndexOf, JOB_TRACKING_FINALIZER, newCondition } from './job-util.js';
import { newJob, NO_INDEX, type IndexPhase } from './job.fixture.js';
import { syncJob } from './sync.js';

const FINISHED_AT = '2009-11-10T23:00:00Z';
/** The fake clock's now (ms). */
export const NOW = Date.now();
let seq = 0;

/** upstream newPod + newPodList: a pod of the job with the tracking finalizer. */
function jobPod(job: Job, phase: string, extra: (p: Pod) => void = () => {}): Pod {
  const name = `pod-${++seq}`;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      uid: name,
      namespace: 'default',
      labels: { ...(job.spec?.selector?.matchLabels ?? {}) },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: 'foobar',
          uid: 'job-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: [JOB_TRACKING_FINALIZER],
    },
    status: {
      phase,
      containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, finishedAt: FINISHED_AT } } }] as never,
    },
  };
  extra(pod);
  return pod;
}

/** An expected condition: type, status, reason, message. */
export type Cond = [type: string, status: string, reason?: string, message?: string];
/** The conditions of a job completed by its completions. */
export const COMPLETE: Cond[] = [
  ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
  ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
];
/** The interim condition of a job past its backoffLimit. */
export const BACKOFF: Cond = [
  'FailureTarget',
  'True',
  'BackoffLimitExceeded',
  'Job has reached the specified backoff limit',
];
/** The conditions of a job failed past its backoffLimit. */
export const BACKOFF_FAILED: Cond[] = [
  BACKOFF,
  ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
];
/** The condition of a suspended job. */
export const SUSPENDED: Cond = ['Suspended', 'True', 'JobSuspended', 'Job suspended'];

/** One row of the table: the job, its pods, and what one sync must do. */
export interface Row {
  p: number;
  c: number;
  bl?: number;
  indexed?: boolean;
  deleting?: boolean;
  suspend?: boolean;
  wasSuspended?: boolean;
  prp?: 'Failed' | 'TerminatingOrFailed';
  pfp?: object;
  initial?: { active?: number; succeed?: number; failed?: number; startTime?: number; conditions?: Cond[] };
  backoff?: { failures: number; last: number };
  err?: boolean;
  podLimit?: number;
  pending?: number;
  active?: number;
  ready?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  withIndexes?: IndexPhase[];
  fakeExpect?: number;
  want: {
    creations?: number;
    deletions?: number;
    active?: number;
    ready?: number;
    succeeded?: number;
    completedIdxs?: string;
    failed?: number;
    terminating?: number;
    conditions?: Cond[];
    createdIndexes?: number[];
    patches?: number;
  };
}

function setup(row: Row) {
  const job = newJob(row.p, row.c, row.bl ?? 6, row.indexed ? 'Indexed' : 'NonIndexed');
  const spec = job.spec!;
  spec.suspend = row.suspend ?? false;
  if (row.prp) spec.podReplacementPolicy = row.prp;
  if (row.pfp) {
    spec.podFailurePolicy = row.pfp as never;
    spec.podReplacementPolicy = 'Failed';
  }
  const status = (job.status ??= {});
  const conds = (cs: Cond[]) => cs.map(([t, s, r, m]) => newCondition(t, s, r ?? '', m ?? '', NOW));
  if (row.initial) {
    status.startTime = new Date(row.initial.startTime ?? NOW).toISOString();
    if (row.initial.active) status.active = row.initial.active;
    if (row.initial.succeed) status.succeeded = row.initial.succeed;
    if (row.initial.failed) status.failed = row.initial.failed;
    if (row.initial.conditions) status.conditions = conds(row.initial.conditions);
  }
  if (row.wasSuspended) status.conditions = [...(status.conditions ?? []), ...conds([SUSPENDED])];
  if (row.deleting) job.metadata.deletionTimestamp = new Date(NOW).toISOString();
  const client = new FakeJobClient();
  client.job = job;
  client.createLimit = row.podLimit ?? 0;
  if (row.err) client.err = new Error('fake error');
  const add = (n: number | undefined, phase: string, extra?: (p: Pod) => void) => {
    for (let i = 0; i < (n ?? 0); i++) client.pods.push(jobPod(job, phase, extra));
  };
  add(row.pending, 'Pending');
  for (let i = 0; i < (row.active ?? 0); i++)
    client.pods.push(
      jobPod(job, 'Running', (p) => {
        if (i < (row.ready ?? 0)) p.status!.conditions = [{ type: 'Ready', status: 'True' }];
      }),
    );
  add(row.succeeded, 'Succeeded');
  add(row.failed, 'Failed');
  add(row.terminating, 'Running', (p) => void (p.metadata.deletionTimestamp = new Date(NOW).toISOString()));
  for (const [index, phase] of row.withIndexes ?? [])
    client.pods.push(
      jobPod(job, phase, (p) => {
        if (phase !== 'Failed' && phase !== 'Succeeded') delete p.status!.containerStatuses;
        if (index !== NO_INDEX) p.metadata.annotations = { [COMPLETION_INDEX]: index };
      }),
    );
  const expectations = new ControllerExpectations();
  if ((row.fakeExpect ?? 0) < 0) expectations.expectDeletions('default/foobar', ['x']);
  if ((row.fakeExpect ?? 0) > 0) expectations.expectCreations('default/foobar', row.fakeExpect!);
  const backoff = new BackoffStore();
  if (row.backoff)
    backoff.update({
      key: 'default/foobar',
      failuresAfterLastSuccess: row.backoff.failures,
      lastFailureTime: row.backoff.last,
    });
  const deps: JobSyncDeps = {
    client,
    expectations,
    finalizerExpectations: new FinalizerExpectations(),
    backoff,
    now: () => NOW,
    enqueueAfter: () => {},
  };
  return { client, deps };
}

/** Run one sync for `row` and check what upstream checks. */
export async function runRow(row: Row): Promise<void> {
  const { client, deps } = setup(row);
  const sync = syncJob('default/foobar', deps);
  if (row.err || row.podLimit) await expect(sync).rejects.toThrow();
  else await sync;
  const w = row.want;
  expect(client.created).toHaveLength(w.creations ?? 0);
  expect(client.deleted).toHaveLength(w.deletions ?? 0);
  for (const pod of client.created) {
    expect(pod.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'foobar',
        uid: 'job-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(pod.metadata.finalizers).toContain(JOB_TRACKING_FINALIZER);
    if (row.indexed) {
      const ix = completionIndexOf(pod);
      expect(pod.metadata.labels?.[COMPLETION_INDEX]).toBe(`${ix}`);
      expect(pod.spec?.hostname).toBe(`foobar-${ix}`);
      expect(pod.metadata.generateName).toBe(`foobar-${ix}-`);
    } else {
      expect(pod.metadata.generateName).toBe('foobar-');
      expect(pod.spec?.hostname).toBeUndefined();
    }
  }
  if (row.indexed) expect(client.created.map(completionIndexOf).sort((a, b) => a - b)).toEqual(w.createdIndexes ?? []);
  const actual = client.actual();
  expect(actual.active ?? 0).toBe(w.active ?? 0);
  expect(actual.ready).toBe(w.ready ?? 0);
  expect(actual.succeeded ?? 0).toBe(w.succeeded ?? 0);
  expect(actual.completedIndexes ?? '').toBe(w.completedIdxs ?? '');
  expect(actual.failed ?? 0).toBe(w.failed ?? 0);
  expect(actual.terminating).toBe(w.terminating ?? (row.terminating ?? 0) + (w.deletions ?? 0));
  if (row.suspend) expect(actual.startTime).toBeUndefined();
  else expect(actual.startTime).toBeTruthy();
  const conds = (actual.conditions ?? []).map((c) =>
    [c.type, c.status, c.reason, c.message].filter((x) => x !== undefined),
  );
  expect(conds).toEqual(w.conditions ?? []);
  expect(client.patches).toHaveLength(w.patches ?? 0);
}
