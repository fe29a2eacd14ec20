/**
 * Upstream 1.33 pkg/controller/job/indexed_job_utils_test.go, ported (part 1, index bookkeeping):
 * TestCalculateSucceededIndexes, TestIntervalsHaveIndex, TestFirstPendingIndexes,
 * TestAppendDuplicatedIndexPodsForRemoval, TestPodGenerateNameWithIndex.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import {
  calculateSucceededIndexes,
  duplicatedIndexPodsForRemoval,
  firstPendingIndexes,
  podGenerateNameWithIndex,
} from './indexed.js';
import { hasIndex, type Interval } from './intervals.js';
import type { SyncJobCtx } from './job-ctx.js';
import { JOB_TRACKING_FINALIZER } from './job-util.js';
import { hollowPods, newJob, NO_INDEX, toIndexPhases, type IndexPhase } from './job.fixture.js';

const iv = (...pairs: [number, number][]): Interval[] => pairs.map(([first, last]) => ({ first, last }));
const S = 'Succeeded';
const F = 'Failed';
const R = 'Running';
const P = 'Pending';

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

describe('TestCalculateSucceededIndexes', () => {
  const cases: [string, string, IndexPhase[], number, Interval[], Interval[]][] = [
    ['one index', '', [['1', S]], 2, [], iv([1, 1])],
    [
      'two separate',
      '',
      [
        ['2', F],
        ['5', S],
        ['5', S],
        ['10', F],
        ['10', S],
      ],
      11,
      [],
      iv([5, 5], [10, 10]),
    ],
    [
      'two intervals',
      '',
      [
        ['0', R],
        ['1', P],
        ['2', S],
        ['3', S],
        ['5', S],
        ['6', S],
        ['7', S],
      ],
      8,
      [],
      iv([2, 3], [5, 7]),
    ],
    [
      'one index and one interval',
      '',
      [
        ['0', S],
        ['1', F],
        ['2', S],
        ['3', S],
        ['4', S],
        ['5', S],
        [NO_INDEX, S],
        ['-2', S],
      ],
      6,
      [],
      iv([0, 0], [2, 5]),
    ],
    [
      'out of range',
      '',
      [
        ['0', S],
        ['1', S],
        ['2', S],
        ['3', F],
        ['4', S],
        ['5', S],
        [NO_INDEX, S],
        ['-2', S],
      ],
      5,
      [],
      iv([0, 2], [4, 4]),
    ],
    ['prev interval out of range', '0-5,8-10', [], 8, iv([0, 5]), iv([0, 5])],
    ['prev interval partially out of range', '0-5,8-10', [], 10, iv([0, 5], [8, 9]), iv([0, 5], [8, 9])],
    [
      'prev and new separate',
      '0,4,5,10-12',
      [
        ['2', S],
        ['7', S],
        ['8', S],
      ],
      13,
      iv([0, 0], [4, 5], [10, 12]),
      iv([0, 0], [2, 2], [4, 5], [7, 8], [10, 12]),
    ],
    [
      'prev between new',
      '3,4,6',
      [
        ['2', S],
        ['7', S],
        ['8', S],
      ],
      9,
      iv([3, 4], [6, 6]),
      iv([2, 4], [6, 8]),
    ],
    [
      'new between prev',
      '2,7,8',
      [
        ['3', S],
        ['4', S],
        ['6', S],
      ],
      9,
      iv([2, 2], [7, 8]),
      iv([2, 4], [6, 8]),
    ],
    [
      'new within prev',
      '2-7',
      [
        ['0', S],
        ['3', S],
        ['5', S],
        ['9', S],
      ],
      10,
      iv([2, 7]),
      iv([0, 0], [2, 7], [9, 9]),
    ],
    ['corrupted interval', '0,1-foo,bar', [['3', S]], 4, iv([0, 0]), iv([0, 0], [3, 3])],
  ];
  it.each(cases)('%s', (_name, prev, descs, completions, wantStatus, want) => {
    const pods = hollowPods(descs).map((p) => ({
      ...p,
      metadata: { ...p.metadata, finalizers: [JOB_TRACKING_FINALIZER] },
    }));
    const [gotStatus, got] = calculateSucceededIndexes(jobWith({ completions }, { completedIndexes: prev }), pods);
    expect(gotStatus).toEqual(wantStatus);
    expect(got).toEqual(want);
  });
});

describe('TestIntervalsHaveIndex', () => {
  const cases: [string, Interval[], number, boolean][] = [
    ['empty', [], 4, false],
    ['before all', iv([2, 4], [5, 7]), 1, false],
    ['after all', iv([2, 4], [6, 8]), 9, false],
    ['in between', iv([2, 4], [6, 8]), 5, false],
    ['in first', iv([2, 4], [6, 8]), 2, true],
    ['in second', iv([2, 4], [6, 8]), 8, true],
  ];
  it.each(cases)('%s', (_name, intervals, index, want) => expect(hasIndex(intervals, index)).toBe(want));
});

describe('TestFirstPendingIndexes', () => {
  const cases: [string, number, number, IndexPhase[], Interval[], Interval[] | undefined, number[]][] = [
    ['cnt greater than completions', 5, 3, [], [], undefined, [0, 1, 2]],
    ['cnt less than completions', 2, 5, [], [], undefined, [0, 1]],
    [
      'first pods active',
      3,
      10,
      [
        ['0', R],
        ['1', P],
      ],
      [],
      undefined,
      [2, 3, 4],
    ],
    ['last pods active or succeeded', 6, 6, [['6', P]], iv([4, 5]), undefined, [0, 1, 2, 3]],
    [
      'mixed',
      5,
      20,
      [
        ['3', P],
        ['5', R],
        ['8', P],
        [NO_INDEX, R],
        ['-3', R],
      ],
      iv([2, 4], [9, 9]),
      undefined,
      [0, 1, 6, 7, 10],
    ],
    [
      'with failed indexes',
      5,
      20,
      [
        ['3', P],
        ['9', P],
      ],
      iv([1, 1], [5, 5], [9, 9]),
      iv([2, 2], [6, 7]),
      [0, 4, 8, 10, 11],
    ],
  ];
  it.each(cases)('%s', (_name, cnt, completions, active, succeeded, failed, want) => {
    const ctx = ctxOf({
      job: newJob(1, 1, 1, 'Indexed'),
      activePods: hollowPods(active),
      succeededIndexes: succeeded,
      failedIndexes: failed,
    });
    expect(firstPendingIndexes(ctx, cnt, completions)).toEqual(want);
  });
});

describe('TestAppendDuplicatedIndexPodsForRemoval', () => {
  const cases: [string, IndexPhase[], IndexPhase[], IndexPhase[], number][] = [
    [
      'all unique',
      [
        [NO_INDEX, P],
        ['2', P],
        ['5', R],
        ['6', R],
      ],
      [
        [NO_INDEX, P],
        ['6', R],
      ],
      [
        ['2', P],
        ['5', R],
      ],
      6,
    ],
    [
      'all with index',
      [
        ['5', P],
        ['0', R],
        ['3', P],
        ['0', R],
        ['3', R],
        ['0', P],
        ['6', R],
        ['6', P],
      ],
      [
        ['0', P],
        ['0', R],
        ['3', P],
        ['6', R],
        ['6', P],
      ],
      [
        ['0', R],
        ['3', R],
        ['5', P],
      ],
      6,
    ],
    [
      'mixed',
      [
        [NO_INDEX, P],
        ['invalid', R],
        ['-2', R],
        ['0', P],
        ['1', P],
        ['1', P],
        ['1', R],
      ],
      [
        [NO_INDEX, P],
        ['invalid', R],
        ['-2', R],
        ['1', P],
        ['1', P],
      ],
      [
        ['0', P],
        ['1', R],
      ],
      6,
    ],
  ];
  it.each(cases)('%s', (_name, pods, wantRm, wantLeft, completions) => {
    const { rm, left } = duplicatedIndexPodsForRemoval(hollowPods(pods), completions);
    expect(toIndexPhases(rm)).toEqual(wantRm);
    expect(toIndexPhases(left)).toEqual(wantLeft);
  });
});

describe('TestPodGenerateNameWithIndex', () => {
  const cases: [string, string, number, string][] = [
    ['short job name', 'indexed-job', 1, 'indexed-job-1-'],
    [
      'job name exceeds MaxGeneneratedNameLength',
      'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooo',
      1,
      'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-',
    ],
    [
      'job name with index suffix exceeds MaxGeneratedNameLength',
      'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo',
      1,
      'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-',
    ],
  ];
  it.each(cases)('%s', (_name, job, index, want) => expect(podGenerateNameWithIndex(job, index)).toBe(want));
});
