/**
 * Upstream 1.33 pkg/controller/job/job_controller_test.go TestGetNewFinshedPods, ported: the
 * finished pods a sync counts (with the tracking finalizer, not yet uncounted, not awaiting
 * finalizer removal) added to the status counters and uncounted uids.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { SyncJobCtx } from './job-ctx.js';
import { buildPod } from './job.fixture.js';
import { newFinishedPods } from './sync.js';

const NOW = Date.now();

describe('TestGetNewFinshedPods', () => {
  const job = (succeeded: number, failed: number, uncounted: { succeeded?: string[]; failed?: string[] } = {}): Job =>
    ({
      metadata: { name: 'j', namespace: 'default' },
      spec: {},
      status: { succeeded, failed, uncountedTerminatedPods: uncounted },
    }) as Job;
  const b = (uid: string, phase: string) => buildPod().uid(uid).phase(phase);
  const cases: [string, Job, Pod[], string[], number, number][] = [
    [
      'some counted',
      job(2, 1),
      [
        b('a', 'Succeeded').pod,
        b('b', 'Succeeded').trackingFinalizer().pod,
        b('c', 'Succeeded').trackingFinalizer().pod,
        b('d', 'Failed').pod,
        b('e', 'Failed').trackingFinalizer().pod,
        b('f', 'Running').pod,
      ],
      [],
      4,
      2,
    ],
    [
      'some uncounted',
      job(1, 1, { succeeded: ['a', 'c'], failed: ['e', 'f'] }),
      [
        b('a', 'Succeeded').pod,
        b('b', 'Succeeded').pod,
        b('c', 'Succeeded').trackingFinalizer().pod,
        b('d', 'Succeeded').trackingFinalizer().pod,
        b('e', 'Failed').pod,
        b('f', 'Failed').trackingFinalizer().pod,
        b('g', 'Failed').trackingFinalizer().pod,
      ],
      [],
      4,
      4,
    ],
    [
      'with expected removed finalizers',
      job(2, 2, { succeeded: ['a'], failed: ['d'] }),
      [
        b('a', 'Succeeded').pod,
        b('b', 'Succeeded').trackingFinalizer().pod,
        b('c', 'Succeeded').trackingFinalizer().pod,
        b('d', 'Failed').pod,
        b('e', 'Failed').trackingFinalizer().pod,
        b('f', 'Failed').trackingFinalizer().pod,
        b('g', 'Failed').trackingFinalizer().pod,
      ],
      ['b', 'f'],
      4,
      5,
    ],
    [
      'deleted pods',
      job(1, 1),
      [
        b('a', 'Succeeded').trackingFinalizer().deletionTimestamp(NOW).pod,
        b('b', 'Failed').trackingFinalizer().deletionTimestamp(NOW).pod,
        b('c', 'Running').trackingFinalizer().deletionTimestamp(NOW).pod,
        b('d', 'Pending').trackingFinalizer().deletionTimestamp(NOW).pod,
        b('e', 'Running').deletionTimestamp(NOW).pod,
        b('f', 'Pending').deletionTimestamp(NOW).pod,
      ],
      [],
      2,
      4,
    ],
  ];
  it.each(cases)('%s', (_name, j, pods, rm, wantSucceeded, wantFailed) => {
    const u = j.status!.uncountedTerminatedPods!;
    const ctx = {
      job: j,
      pods,
      uncounted: { succeeded: new Set(u.succeeded ?? []), failed: new Set(u.failed ?? []) },
      expectedRmFinalizers: new Set(rm),
    } as unknown as SyncJobCtx;
    const [s, f] = newFinishedPods(ctx);
    expect(s.length + (j.status!.succeeded ?? 0) + ctx.uncounted.succeeded.size).toBe(wantSucceeded);
    expect(f.length + (j.status!.failed ?? 0) + ctx.uncounted.failed.size).toBe(wantFailed);
  });
});
