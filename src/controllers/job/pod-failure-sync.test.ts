/**
 * Upstream 1.33 pkg/controller/job/job_controller_test.go TestSyncJobWithJobPodFailurePolicy,
 * ported (its rows on a NonIndexed job with one failed pod): one sync of a job whose pod
 * `default/mypod-0` failed, checked for the conditions (1.33's FailureTarget then Failed), the
 * active count after the sync and the failed count.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { BackoffStore } from './backoff.js';
import { FinalizerExpectations } from './client.js';
import { FakeJobClient } from './fake-client.fixture.js';
import { JOB_TRACKING_FINALIZER } from './job-util.js';
import { newJob } from './job.fixture.js';
import { syncJob } from './sync.js';

const NOW = Date.now();
const FINISHED_AT = '2009-11-10T23:00:00Z';
const exited = (exitCode: number, name = '', finishedAt?: string) => ({
  name,
  state: { terminated: { exitCode, ...(finishedAt ? { finishedAt } : {}) } },
});
const onExit = (action: string, operator: string, values: number[]) => ({ action, onExitCodes: { operator, values } });
const onCond = (action: string, type: string) => ({ action, onPodConditions: [{ type, status: 'True' }] });
/** upstream onExitCodeRules. */
const ON_EXIT_CODE_RULES = [onExit('Ignore', 'In', [1, 2, 3]), onExit('FailJob', 'In', [5, 6, 7])];
const DT = 'DisruptionTarget';
const failedBy = (reason: string, message: string) => [
  ['FailureTarget', 'True', reason, message],
  ['Failed', 'True', reason, message],
];
const exitMsg = (container: string, code: number, index: number) =>
  `Container ${container} for pod default/mypod-0 failed with exit code ${code} matching FailJob rule at index ${index}`;

interface Row {
  readonly backoffLimit: number;
  readonly rules: object[];
  readonly completions?: number;
  readonly status?: Record<string, unknown>;
  readonly deleting?: boolean;
  readonly want: { conditions?: string[][]; active: number; failed: number };
}

const rows: Record<string, Row> = {
  'fail job based on OnExitCodes with NotIn operator': {
    backoffLimit: 6,
    rules: [onExit('FailJob', 'NotIn', [5, 6, 7])],
    status: { phase: 'Failed', containerStatuses: [exited(42, 'main-container')] },
    want: { conditions: failedBy('PodFailurePolicy', exitMsg('main-container', 42, 0)), active: 0, failed: 1 },
  },
  'default handling job based on OnExitCodes with NotIn operator': {
    backoffLimit: 6,
    rules: [onExit('FailJob', 'NotIn', [5, 6, 7])],
    status: { phase: 'Failed', containerStatuses: [exited(5, 'main-container', FINISHED_AT)] },
    want: { active: 1, failed: 1 },
  },
  'fail job based on OnExitCodes for InitContainer': {
    backoffLimit: 6,
    rules: ON_EXIT_CODE_RULES,
    status: {
      phase: 'Failed',
      initContainerStatuses: [exited(5, 'init-container')],
      containerStatuses: [exited(143, 'main-container')],
    },
    want: { conditions: failedBy('PodFailurePolicy', exitMsg('init-container', 5, 1)), active: 0, failed: 1 },
  },
  'ignore pod failure; both rules are matching, the first is executed only': {
    backoffLimit: 0,
    rules: ON_EXIT_CODE_RULES,
    status: { phase: 'Failed', containerStatuses: [exited(2, 'container1'), exited(6, 'container2')] },
    want: { active: 1, failed: 0 },
  },
  'ignore pod failure based on OnExitCodes': {
    backoffLimit: 0,
    rules: ON_EXIT_CODE_RULES,
    status: { phase: 'Failed', containerStatuses: [exited(1)] },
    want: { active: 1, failed: 0 },
  },
  'default job based on OnExitCodes': {
    backoffLimit: 0,
    rules: ON_EXIT_CODE_RULES,
    status: { phase: 'Failed', containerStatuses: [exited(10)] },
    want: {
      conditions: failedBy('BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
      active: 0,
      failed: 1,
    },
  },
  'count pod failure based on OnExitCodes; both rules are matching, the first is executed only': {
    backoffLimit: 6,
    rules: [onExit('Count', 'In', [1, 2]), onExit('Ignore', 'In', [2, 3])],
    status: { phase: 'Failed', containerStatuses: [exited(2, '', FINISHED_AT)] },
    want: { active: 1, failed: 1 },
  },
  'count pod failure based on OnPodConditions; both rules are matching, the first is executed only': {
    backoffLimit: 6,
    rules: [onCond('Count', 'ResourceLimitExceeded'), onCond('Ignore', DT)],
    status: {
      phase: 'Failed',
      conditions: [
        { type: 'ResourceLimitExceeded', status: 'True' },
        { type: DT, status: 'True' },
      ],
      containerStatuses: [exited(0, '', FINISHED_AT)],
    },
    want: { active: 1, failed: 1 },
  },
  'ignore pod failure based on OnPodConditions': {
    backoffLimit: 0,
    rules: [onCond('Ignore', DT)],
    status: { phase: 'Failed', conditions: [{ type: DT, status: 'True' }] },
    want: { active: 1, failed: 0 },
  },
  'ignore pod failure based on OnPodConditions, ignored failures delays pod recreation': {
    backoffLimit: 0,
    rules: [onCond('Ignore', DT)],
    deleting: true,
    status: { phase: 'Failed', conditions: [{ type: DT, status: 'True' }] },
    want: { active: 0, failed: 0 },
  },
  'fail job based on OnPodConditions': {
    backoffLimit: 6,
    rules: [onCond('FailJob', DT)],
    status: { phase: 'Failed', conditions: [{ type: DT, status: 'True' }] },
    want: {
      conditions: failedBy(
        'PodFailurePolicy',
        'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0',
      ),
      active: 0,
      failed: 1,
    },
  },
  'terminating Pod not considered failed when JobPodFailurePolicy is enabled and used': {
    backoffLimit: 0,
    completions: -1,
    rules: [onCond('Count', DT)],
    deleting: true,
    status: {},
    want: { active: 0, failed: 0 },
  },
};

describe('TestSyncJobWithJobPodFailurePolicy', () => {
  it.each(Object.entries(rows))('%s', async (_name, row) => {
    const job = newJob(1, row.completions ?? 1, row.backoffLimit);
    job.spec!.podFailurePolicy = { rules: row.rules } as never;
    job.spec!.podReplacementPolicy = 'Failed';
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'mypod-0',
        uid: 'mypod-0',
        namespace: 'default',
        labels: { foo: 'bar' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'foobar', uid: 'job-uid', controller: true }],
        finalizers: [JOB_TRACKING_FINALIZER],
        ...(row.deleting ? { deletionTimestamp: new Date(NOW).toISOString() } : {}),
      },
      status: row.status as Pod['status'],
    };
    const client = new FakeJobClient();
    client.job = job;
    client.pods = [pod];
    await syncJob('default/foobar', {
      client,
      expectations: new ControllerExpectations(),
      finalizerExpectations: new FinalizerExpectations(),
      backoff: new BackoffStore(),
      now: () => NOW,
      enqueueAfter: () => {},
    });
    const actual = client.actual();
    const conds = (actual.conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message]);
    expect(conds).toEqual(row.want.conditions ?? []);
    expect(actual.active ?? 0).toBe(row.want.active);
    expect(actual.failed ?? 0).toBe(row.want.failed);
    expect(actual.succeeded ?? 0).toBe(0);
  });
});
