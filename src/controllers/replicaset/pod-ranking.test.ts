/**
 * Ports of upstream 1.33 controller_utils_test.go TestSortingActivePods,
 * TestSortingActivePodsWithRanks, TestActivePodFiltering and replica_set_test.go
 * TestGetPodsToDelete.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  deletesBefore,
  filterActivePods,
  isPodAvailable,
  podsToDelete,
  POD_DELETION_COST,
  sortForDeletion,
  type RankedPod,
} from './pod-ranking.js';
import { newPod, newPodList, newReplicaSet } from './replicaset.fixture.js';

const iso = (ms: number) => new Date(ms).toISOString();
const NOW = Date.parse('2026-06-15T12:00:00Z');
const HOUR = 3_600_000;

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('TestSortingActivePods (ranks equal, times compared exactly)', () => {
  const then = iso(NOW - 5 * 60_000);
  const mk = (
    name: string,
    node: string,
    phase: string,
    extra: Partial<NonNullable<Pod['status']>> = {},
    created?: string,
  ): Pod => ({
    metadata: { name, ...(created ? { creationTimestamp: created } : {}) },
    spec: { nodeName: node, containers: [] },
    status: { phase: phase as 'Running', ...extra },
  });
  const ready = (at?: string) => ({
    conditions: [at ? { type: 'Ready', status: 'True', lastTransitionTime: at } : { type: 'Ready', status: 'True' }],
  });
  const pods = [
    mk('unscheduled', '', 'Pending'),
    mk('scheduledButPending', 'bar', 'Pending'),
    mk('unknownPhase', 'foo', 'Unknown'),
    mk('runningButNotReady', 'foo', 'Running'),
    mk('runningNoLastTransitionTime', 'foo', 'Running', { ...ready(), containerStatuses: restarts(3, 0) }),
    mk('runningWithLastTransitionTime', 'foo', 'Running', { ...ready(iso(NOW)), containerStatuses: restarts(3, 0) }),
    mk('runningLongerTime', 'foo', 'Running', { ...ready(then), containerStatuses: restarts(3, 0) }),
    mk('lowerContainerRestartCount', 'foo', 'Running', { ...ready(then), containerStatuses: restarts(2, 1) }, iso(NOW)),
    mk('oldest', 'foo', 'Running', { ...ready(then), containerStatuses: restarts(2, 1) }, then),
  ];
  it('sorts by active pod, whatever the input order', () => {
    for (let i = 0; i < 20; i++) {
      const sorted = sortForDeletion(shuffled(pods).map((pod) => ({ pod, rank: 0 })));
      expect(sorted.map((r) => r.pod.metadata.name)).toEqual(pods.map((p) => p.metadata.name));
    }
  });
});

function restarts(...counts: number[]) {
  return counts.map((restartCount, i) => ({
    name: `c${i}`,
    image: 'i',
    imageID: '',
    ready: true,
    restartCount,
  }));
}

describe('TestSortingActivePodsWithRanks', () => {
  const then1Month = iso(new Date(NOW).setUTCMonth(new Date(NOW).getUTCMonth() - 1));
  const [then2h, then5h, then8h] = [2, 5, 8].map((h) => iso(NOW - h * HOUR));
  const pod = (
    name: string,
    node: string,
    phase: string,
    isReady: boolean,
    restartCount: number,
    readySince: string | undefined,
    created: string | undefined,
    annotations?: Record<string, string>,
  ): Pod => ({
    metadata: { name, ...(created ? { creationTimestamp: created } : {}), ...(annotations ? { annotations } : {}) },
    spec: { nodeName: node, containers: [] },
    status: {
      phase: phase as 'Running',
      ...(isReady
        ? {
            conditions: [{ type: 'Ready', status: 'True', ...(readySince ? { lastTransitionTime: readySince } : {}) }],
            containerStatuses: restarts(restartCount),
          }
        : {}),
    },
  });
  const now = iso(NOW);
  const unscheduled = pod('unscheduled', '', 'Pending', false, 0, undefined, undefined);
  const scheduledPending = pod('pending', 'node', 'Pending', false, 0, undefined, undefined);
  const unknownPhase = pod('unknown-phase', 'node', 'Unknown', false, 0, undefined, undefined);
  const runningNotReady = pod('not-ready', 'node', 'Running', false, 0, undefined, undefined);
  const readyNoLastTransition = pod('ready-no-last-transition-time', 'node', 'Running', true, 0, undefined, undefined);
  const readyNow = pod('ready-now', 'node', 'Running', true, 0, now, now);
  const readyThen = pod('ready-then', 'node', 'Running', true, 0, then1Month, then1Month);
  const readyNowHighRestarts = pod('ready-high-restarts', 'node', 'Running', true, 9001, now, now);
  const readyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, now, then1Month);
  const lowCost = pod('low-deletion-cost', 'node', 'Running', true, 0, now, then1Month, { [POD_DELETION_COST]: '10' });
  const highCost = pod('high-deletion-cost', 'node', 'Running', true, 0, now, then1Month, {
    [POD_DELETION_COST]: '100',
  });
  const unscheduled5h = pod('unscheduled-5-hours', '', 'Pending', false, 0, then5h, then5h);
  const unscheduled8h = pod('unscheduled-10-hours', '', 'Pending', false, 0, then8h, then8h);
  const ready2h = pod('ready-2-hours', '', 'Running', true, 0, then2h, then1Month);
  const ready5h = pod('ready-5-hours', '', 'Running', true, 0, then5h, then1Month);
  const ready8h = pod('ready-10-hours', '', 'Running', true, 0, then8h, then1Month);

  const equal: [Pod, Pod?][] = [
    [unscheduled],
    [scheduledPending],
    [unknownPhase],
    [runningNotReady],
    [readyNowCreatedThen],
    [readyNow],
    [readyThen],
    [readyNowHighRestarts],
    [readyNowCreatedThen],
    [unscheduled5h, unscheduled8h],
    [ready5h, ready8h],
  ];
  it.each(equal.map(([a, b], i) => ({ i, a, b: b ?? a })))('equality $i', ({ a, b }) => {
    const [ra, rb]: RankedPod[] = [
      { pod: a, rank: 1 },
      { pod: b, rank: 1 },
    ];
    expect(deletesBefore(ra, rb, NOW)).toBe(false);
    expect(deletesBefore(rb, ra, NOW)).toBe(false);
  });

  // Upstream's one case with PodDeletionCost disabled is left out: the gate is GA and locked on.
  const lessThan: [Pod, number, Pod, number][] = [
    [unscheduled, 1, scheduledPending, 2],
    [unscheduled, 2, scheduledPending, 1],
    [scheduledPending, 1, unknownPhase, 2],
    [unknownPhase, 1, runningNotReady, 2],
    [runningNotReady, 1, readyNoLastTransition, 1],
    [readyNoLastTransition, 1, readyNow, 1],
    [readyNow, 2, readyNoLastTransition, 1],
    [readyNow, 1, readyThen, 1],
    [readyNow, 2, readyThen, 1],
    [readyNowHighRestarts, 1, readyNow, 1],
    [readyNow, 2, readyNowHighRestarts, 1],
    [readyNow, 1, readyNowCreatedThen, 1],
    [readyNowCreatedThen, 2, readyNow, 1],
    [lowCost, 2, highCost, 1],
    [ready2h, 1, ready5h, 1],
  ];
  it.each(lessThan.map(([a, ra, b, rb], i) => ({ i, a, ra, b, rb })))(
    'inequality $i: $a.metadata.name ($ra) before $b.metadata.name ($rb)',
    ({ a, ra, b, rb }) => {
      expect(deletesBefore({ pod: a, rank: ra }, { pod: b, rank: rb }, NOW)).toBe(true);
      expect(deletesBefore({ pod: b, rank: rb }, { pod: a, rank: ra }, NOW)).toBe(false);
    },
  );
});

describe('TestActivePodFiltering', () => {
  it('drops Succeeded, Failed and terminating pods', () => {
    const rs = newReplicaSet(0, { foo: 'bar' });
    const pods = newPodList(6, 'Running', { foo: 'bar' }, rs);
    pods[0].status!.phase = 'Succeeded';
    pods[1].status!.phase = 'Failed';
    pods[2].metadata.deletionTimestamp = iso(NOW);
    expect(filterActivePods(pods).map((p) => p.metadata.name)).toEqual(['pod3', 'pod4', 'pod5']);
  });
});

describe('IsPodAvailable', () => {
  const rs = newReplicaSet(1, { foo: 'bar' });
  it.each([
    { name: 'not ready', phase: 'Pending', since: iso(NOW - HOUR), min: 0, want: false },
    { name: 'ready, minReadySeconds 0', phase: 'Running', since: iso(NOW), min: 0, want: true },
    { name: 'ready for less than minReadySeconds', phase: 'Running', since: iso(NOW - 5_000), min: 10, want: false },
    { name: 'ready for more than minReadySeconds', phase: 'Running', since: iso(NOW - 11_000), min: 10, want: true },
  ])('$name', ({ phase, since, min, want }) => {
    expect(isPodAvailable(newPod('p', rs, phase, since), min, NOW)).toBe(want);
  });
});

describe('TestGetPodsToDelete', () => {
  const rs = newReplicaSet(1, { name: 'foo' });
  const unscheduledPending = newPod('unscheduled-pending-pod', rs, 'Pending', undefined, true);
  const scheduledPending = withNode(newPod('scheduled-pending-pod', rs, 'Pending', undefined, true), 'fake-node');
  const notReady = withNode(newPod('scheduled-running-not-ready-pod', rs, 'Running', undefined, true), 'fake-node');
  notReady.status!.conditions = [{ type: 'Ready', status: 'False' }];
  const readyOn1 = withNode(
    newPod('scheduled-running-ready-pod-on-node-1', rs, 'Running', undefined, true),
    'fake-node-1',
  );
  const readyOn2 = withNode(
    newPod('scheduled-running-ready-pod-on-node-2', rs, 'Running', undefined, true),
    'fake-node-2',
  );
  const all6 = [readyOn1, readyOn1, readyOn2, notReady, scheduledPending, unscheduledPending];
  const cases: { name: string; pods: Pod[]; related?: Pod[]; diff: number; want: Pod[] }[] = [
    { name: 'len(pods) = 0 (i.e., diff = 0 too)', pods: [], diff: 0, want: [] },
    { name: 'diff = len(pods)', pods: [notReady, readyOn1], diff: 2, want: [notReady, readyOn1] },
    { name: 'diff < len(pods)', pods: [readyOn1, notReady], diff: 1, want: [notReady] },
    { name: 'various pod phases and conditions, diff = len(pods)', pods: all6, diff: 6, want: all6 },
    { name: 'various ..., diff = len(pods), relatedPods empty', pods: all6, related: [], diff: 6, want: all6 },
    {
      name: 'scheduled vs unscheduled',
      pods: [scheduledPending, unscheduledPending],
      diff: 1,
      want: [unscheduledPending],
    },
    { name: 'ready vs not-ready', pods: [readyOn1, notReady, notReady], diff: 2, want: [notReady, notReady] },
    {
      name: 'ready and colocated with another ready pod vs not colocated',
      pods: [readyOn1, readyOn2],
      related: [readyOn1, readyOn2, readyOn2],
      diff: 1,
      want: [readyOn2],
    },
    { name: 'pending vs running', pods: [scheduledPending, notReady], diff: 1, want: [scheduledPending] },
    {
      name: 'various pod phases and conditions, diff < len(pods)',
      pods: [readyOn1, readyOn2, notReady, scheduledPending, unscheduledPending],
      diff: 3,
      want: [unscheduledPending, scheduledPending, notReady],
    },
  ];
  it.each(cases)('$name', ({ pods, related, diff, want }) => {
    expect(podsToDelete(pods, related ?? pods, diff, NOW)).toEqual(want);
  });
});

function withNode(pod: Pod, nodeName: string): Pod {
  pod.spec = { ...pod.spec!, nodeName };
  return pod;
}
