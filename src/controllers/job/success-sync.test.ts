/**
 * Upstream 1.33 pkg/controller/job/job_controller_test.go TestSyncJobWithJobSuccessPolicy,
 * ported (its rows where the success policy meets backoffLimit, backoffLimitPerIndex and the
 * pod failure policy; the row with JobSuccessPolicy disabled is left out, the gate being GA):
 * whichever of SuccessCriteriaMet and FailureTarget the job has first decides how it ends.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { BackoffStore } from './backoff.js';
import { FinalizerExpectations } from './client.js';
import { FakeJobClient } from './fake-client.fixture.js';
import { newCondition } from './job-util.js';
import { buildPod, newJob, type PodBuilder } from './job.fixture.js';
import { syncJob } from './sync.js';

const NOW = Date.now();
const MAX_INT32 = 2147483647;
type Cond = [string, string, string, string];
const SCM: Cond = ['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 0'];
const COMPLETE: Cond = ['Complete', 'True', 'SuccessPolicy', 'Matched rules at index 0'];
const DISRUPTED = 'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0';
const failJobOnDisruption = {
  rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
};
const disrupted = (b: PodBuilder) =>
  b.status({ phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] } as never);

interface Row {
  readonly spec: NonNullable<Job['spec']>;
  readonly status?: { failed?: number; succeeded?: number; completedIndexes?: string; conditions: Cond[] };
  readonly pods: PodBuilder[];
  readonly want: {
    failed: number;
    succeeded: number;
    completedIndexes: string;
    failedIndexes?: string;
    conditions: Cond[];
  };
}

const rows: Record<string, Row> = {
  'job with successPolicy and backoffLimitPerIndex; job has a failed condition when job meets to both successPolicy and backoffLimitPerIndex':
    {
      spec: {
        backoffLimit: MAX_INT32,
        backoffLimitPerIndex: 1,
        successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] },
      },
      pods: [
        buildPod().uid('a').index('0').phase('Failed').indexFailureCount('1').trackingFinalizer(),
        buildPod().uid('b').index('1').phase('Succeeded').trackingFinalizer(),
      ],
      want: {
        failed: 1,
        succeeded: 1,
        completedIndexes: '1',
        failedIndexes: '0',
        conditions: [
          ['FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes'],
          ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes'],
        ],
      },
    },
  'job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job has a failed condition when job meets to both successPolicy and backoffLimit':
    {
      spec: { backoffLimit: 1, successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] } },
      pods: [
        buildPod().uid('a1').index('0').phase('Failed').trackingFinalizer(),
        buildPod().uid('a2').index('0').phase('Failed').trackingFinalizer(),
        buildPod().uid('b').index('1').phase('Succeeded').trackingFinalizer(),
      ],
      want: {
        failed: 2,
        succeeded: 1,
        completedIndexes: '1',
        conditions: [
          ['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
          ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
        ],
      },
    },
  'job with successPolicy and podFailurePolicy; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets podFailurePolicy':
    {
      spec: {
        backoffLimit: MAX_INT32,
        successPolicy: { rules: [{ succeededCount: 1 }] },
        podFailurePolicy: failJobOnDisruption,
      },
      status: { succeeded: 1, completedIndexes: '1', conditions: [SCM] },
      pods: [
        disrupted(buildPod().uid('a').index('0')).trackingFinalizer(),
        buildPod().uid('b').index('1').phase('Succeeded').trackingFinalizer(),
      ],
      want: { failed: 1, succeeded: 1, completedIndexes: '1', conditions: [SCM, COMPLETE] },
    },
  'job with successPolicy and backoffLimitPerIndex; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meet backoffLimitPerIndex':
    {
      spec: { backoffLimit: MAX_INT32, backoffLimitPerIndex: 1, successPolicy: { rules: [{ succeededIndexes: '1' }] } },
      status: { succeeded: 1, completedIndexes: '1', conditions: [SCM] },
      pods: [
        buildPod().uid('a').index('0').phase('Failed').indexFailureCount('1').trackingFinalizer(),
        buildPod().uid('b').index('1').phase('Succeeded').trackingFinalizer(),
      ],
      want: { failed: 1, succeeded: 1, completedIndexes: '1', failedIndexes: '0', conditions: [SCM, COMPLETE] },
    },
  'job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets backoffLimit':
    {
      spec: { backoffLimit: 1, successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] } },
      status: { succeeded: 1, completedIndexes: '1', conditions: [SCM] },
      pods: [
        buildPod().uid('a').index('0').phase('Failed').trackingFinalizer(),
        buildPod().uid('b').index('1').phase('Succeeded').trackingFinalizer(),
      ],
      want: { failed: 1, succeeded: 1, completedIndexes: '1', conditions: [SCM, COMPLETE] },
    },
  'job with successPolicy and podFailureTarget; jobPodReplacementPolicy feature enabled; job with FailureTarget has never been transitioned to SuccessCriteriaMet even if job meets successPolicy':
    {
      spec: {
        backoffLimit: MAX_INT32,
        successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] },
        podFailurePolicy: failJobOnDisruption,
      },
      status: {
        failed: 1,
        completedIndexes: '1',
        conditions: [['FailureTarget', 'True', 'PodFailurePolicy', DISRUPTED]],
      },
      pods: [
        disrupted(buildPod().uid('a').index('0')),
        buildPod().uid('b').index('1').phase('Succeeded').trackingFinalizer(),
      ],
      want: {
        failed: 1,
        succeeded: 1,
        completedIndexes: '1',
        conditions: [
          ['FailureTarget', 'True', 'PodFailurePolicy', DISRUPTED],
          ['Failed', 'True', 'PodFailurePolicy', DISRUPTED],
        ],
      },
    },
};

describe('TestSyncJobWithJobSuccessPolicy', () => {
  it.each(Object.entries(rows))('%s', async (_name, row) => {
    const job = newJob(2, 2, 0, 'Indexed');
    Object.assign(job.spec!, row.spec);
    if (row.spec.podFailurePolicy) job.spec!.podReplacementPolicy = 'Failed';
    const conds = (row.status?.conditions ?? []).map(([t, s, r, m]) => newCondition(t, s, r, m, NOW));
    job.status = { ...row.status, terminating: 0, uncountedTerminatedPods: {}, conditions: conds };
    const client = new FakeJobClient();
    client.job = job;
    client.pods = row.pods.map((b, i): Pod => {
      const pod = b.pod;
      pod.metadata.name = `mypod-${i}`;
      pod.metadata.labels = { foo: 'bar' };
      pod.metadata.ownerReferences = [
        { apiVersion: 'batch/v1', kind: 'Job', name: 'foobar', uid: 'job-uid', controller: true },
      ];
      return pod;
    });
    await syncJob('default/foobar', {
      client,
      expectations: new ControllerExpectations(),
      finalizerExpectations: new FinalizerExpectations(),
      backoff: new BackoffStore(),
      now: () => NOW,
      enqueueAfter: () => {},
    });
    const actual = client.actual();
    expect(actual.failed ?? 0).toBe(row.want.failed);
    expect(actual.succeeded ?? 0).toBe(row.want.succeeded);
    expect(actual.active ?? 0).toBe(0);
    expect(actual.terminating).toBe(0);
    expect(actual.completedIndexes).toBe(row.want.completedIndexes);
    expect(actual.failedIndexes).toBe(row.want.failedIndexes);
    expect(actual.uncountedTerminatedPods).toEqual({});
    expect((actual.conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message])).toEqual(row.want.conditions);
  });
});
