/**
 * Upstream 1.33 pkg/controller/job/indexed_job_utils_test.go, ported (part 2, failures per index):
 * TestIsIndexFailed, TestCalculateFailedIndexes, TestGetPodsWithDelayedDeletionPerIndex,
 * TestGetNewIndexFailureCountValue, TestGetIndexFailureCount.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { filterActivePods } from '../replicaset/pod-ranking.js';
import { indexFailureCount } from './backoff.js';
import {
  calculateFailedIndexes,
  calculateSucceededIndexes,
  isIndexFailed,
  newIndexFailureCounts,
  podsWithDelayedDeletionPerIndex,
} from './indexed.js';
import type { Interval } from './intervals.js';
import type { SyncJobCtx } from './job-ctx.js';
import { buildPod } from './job.fixture.js';

const iv = (...pairs: [number, number][]): Interval[] => pairs.map(([first, last]) => ({ first, last }));
const S = 'Succeeded';
const F = 'Failed';
const R = 'Running';

const ctxOf = (fields: Partial<SyncJobCtx> & { job: Job }): SyncJobCtx => ({
  pods: [],
  activePods: [],
  succeeded: 0,
  failed: 0,
  prevSucceededIndexes: [],
  succeededIndexes: [],
  newBackoffRecord: { key: 'k', failuresAfterLastSuccess: 0 },
  expectedRmFinalizers: new Set(),
  uncounted: { succeeded: new Set(), failed: new Set() },
  terminating: 0,
  ready: 0,
  ...fields,
});

const jobWith = (spec: NonNullable<Job['spec']>, status: Job['status'] = {}): Job =>
  ({ metadata: { name: 'j', namespace: 'default' }, spec, status }) as Job;

const exitCode3 = (pod: ReturnType<typeof buildPod>) =>
  pod.status({ phase: F, containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 3 } } }] as never });
const failIndexOn3 = {
  rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [3] } }],
};

describe('TestIsIndexFailed', () => {
  it('failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=0', () => {
    const pod = buildPod().indexFailureCount('0').phase(F).index('0').trackingFinalizer().pod;
    expect(isIndexFailed(jobWith({ completions: 2, backoffLimitPerIndex: 0 }), pod)).toBe(true);
  });
  it('failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=1', () => {
    const pod = buildPod().indexFailureCount('1').phase(F).index('1').trackingFinalizer().pod;
    expect(isIndexFailed(jobWith({ completions: 2, backoffLimitPerIndex: 1 }), pod)).toBe(true);
  });
  it('matching FailIndex pod failure policy', () => {
    const pod = exitCode3(buildPod().indexFailureCount('0')).index('0').trackingFinalizer().pod;
    const job = jobWith({ completions: 2, backoffLimitPerIndex: 1, podFailurePolicy: failIndexOn3 });
    expect(isIndexFailed(job, pod)).toBe(true);
  });
  it('a failure below backoffLimitPerIndex does not fail the index', () => {
    const pod = buildPod().indexFailureCount('0').phase(F).index('0').trackingFinalizer().pod;
    expect(isIndexFailed(jobWith({ completions: 2, backoffLimitPerIndex: 1 }), pod)).toBe(false);
  });
});

describe('TestCalculateFailedIndexes', () => {
  const failed = (count: string, index: string, finalizer = true) => {
    const b = buildPod().indexFailureCount(count).phase(F).index(index);
    return (finalizer ? b.trackingFinalizer() : b).pod;
  };
  const cases: [string, number, string | undefined, Pod[], Interval[]][] = [
    ['one new index failed', 1, undefined, [failed('0', '0'), failed('1', '1')], iv([1, 1])],
    ['pod without finalizer is ignored', 0, undefined, [failed('0', '0', false)], []],
    ['pod outside completions is ignored', 0, undefined, [failed('0', '3', false)], []],
    ['extend the failed indexes', 0, '0', [failed('0', '1')], iv([0, 1])],
    ['prev failed indexes empty', 0, '', [failed('0', '1')], iv([1, 1])],
    ['prev failed indexes outside the completions', 0, '9', [failed('0', '1')], iv([1, 1])],
  ];
  it.each(cases)('%s', (_name, limit, prev, pods, want) => {
    const status = prev === undefined ? {} : { failedIndexes: prev };
    expect(calculateFailedIndexes(jobWith({ completions: 2, backoffLimitPerIndex: limit }, status), pods)).toEqual(
      want,
    );
  });
});

describe('TestGetPodsWithDelayedDeletionPerIndex', () => {
  const now = Date.now();
  const f = (uid: string, count: string, index: string) =>
    buildPod().uid(uid).indexFailureCount(count).phase(F).index(index).trackingFinalizer();
  const cases: [string, number, number, Pod[], string[], string[]][] = [
    [
      'failed pods are kept corresponding to non-failed indexes are kept',
      3,
      1,
      [f('a', '0', '0').pod, f('b', '1', '1').pod, f('c', '0', '2').pod],
      [],
      ['a', 'c'],
    ],
    [
      "failed pod without finalizer; the pod's deletion is not delayed as it already started",
      2,
      0,
      [buildPod().uid('a').indexFailureCount('0').phase(F).index('0').pod],
      [],
      [],
    ],
    [
      "failed pod with expected finalizer removal; the pod's deletion is not delayed as it already started",
      2,
      0,
      [f('a', '0', '0').pod],
      ['a'],
      [],
    ],
    [
      "failed pod with index outside of completions; the pod's deletion is not delayed",
      2,
      0,
      [f('a', '0', '4').pod],
      [],
      [],
    ],
    [
      "failed pod for active index; the pod's deletion is not delayed as it is already replaced",
      2,
      1,
      [f('a1', '0', '0').pod, buildPod().uid('a2').indexFailureCount('1').phase(R).index('0').trackingFinalizer().pod],
      [],
      [],
    ],
    [
      "failed pod for succeeded index; the pod's deletion is not delayed as it is already replaced",
      2,
      1,
      [f('a1', '0', '0').pod, buildPod().uid('a2').indexFailureCount('1').phase(S).index('0').trackingFinalizer().pod],
      [],
      [],
    ],
    [
      'multiple failed pods for index with different failure count; only the pod with highest failure count is kept',
      2,
      4,
      [f('a1', '0', '0').pod, f('a3', '2', '0').pod, f('a2', '1', '0').pod],
      [],
      ['a3'],
    ],
    [
      'multiple failed pods for index with different finish times; only the last failed pod is kept',
      2,
      4,
      [
        f('a1', '1', '0').deletionTimestamp(now - 1000).pod,
        f('a3', '1', '0').deletionTimestamp(now).pod,
        f('a2', '1', '0').deletionTimestamp(now - 2000).pod,
      ],
      [],
      ['a3'],
    ],
  ];
  it.each(cases)('%s', (_name, completions, limit, pods, rm, want) => {
    const job = jobWith({ completions, backoffLimitPerIndex: limit, completionMode: 'Indexed' });
    const ctx = ctxOf({
      job,
      pods,
      activePods: filterActivePods(pods),
      succeededIndexes: calculateSucceededIndexes(job, pods)[1],
      failedIndexes: calculateFailedIndexes(job, pods),
      expectedRmFinalizers: new Set(rm),
    });
    const got = [...podsWithDelayedDeletionPerIndex(ctx).values()].map((p) => p.metadata.uid).sort();
    expect(got).toEqual(want);
  });
});

describe('TestGetNewIndexFailureCountValue', () => {
  it('first pod created', () => expect(newIndexFailureCounts(jobWith({}), undefined)).toEqual([0, 0]));
  it('failed pod being replaced with 0 index failure count', () =>
    expect(
      newIndexFailureCounts(jobWith({}), buildPod().uid('a').indexFailureCount('0').phase(F).index('0').pod),
    ).toEqual([1, 0]));
  it('failed pod being replaced with >0 index failure count', () =>
    expect(
      newIndexFailureCounts(jobWith({}), buildPod().uid('a').indexFailureCount('3').phase(F).index('0').pod),
    ).toEqual([4, 0]));
  it('failed pod being replaced, matching the ignore rule', () => {
    const job = jobWith({
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
    });
    const pod = buildPod()
      .uid('a')
      .indexFailureCount('3')
      .status({ phase: F, conditions: [{ type: 'DisruptionTarget', status: 'True' }] } as never)
      .index('3').pod;
    expect(newIndexFailureCounts(job, pod)).toEqual([3, 1]);
  });
});

describe('TestGetIndexFailureCount', () => {
  const cases: [string, string | undefined, number][] = [
    ['no annotation', undefined, 0],
    ['valid value', '2', 2],
    ['valid maxint32 value', '2147483647', 2147483647],
    ['too large value', '2147483648', 0],
    ['negative value', '-1', 0],
    ['invalid int value', 'xyz', 0],
  ];
  it.each(cases)('%s', (_name, value, want) => {
    const pod = value === undefined ? buildPod().pod : buildPod().indexFailureCount(value).pod;
    expect(indexFailureCount(pod)).toBe(want);
  });
});
