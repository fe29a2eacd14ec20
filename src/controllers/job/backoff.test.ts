/**
 * Upstream 1.33 pkg/controller/job/backoff_utils_test.go, ported: TestNewBackoffRecord,
 * TestGetFinishedTime, TestGetRemainingBackoffTime, TestGetRemainingBackoffTimePerIndex.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { BackoffStore, finishedTime, remainingTime, remainingTimePerIndex, type BackoffRecord } from './backoff.js';
import { INDEX_IGNORED_FAILURE_COUNT } from './job-util.js';
import { buildPod } from './job.fixture.js';

const T = Date.UTC(2009, 10, 10, 23, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const terminatedAt = (ms?: number) => ({
  name: 'c',
  state: { terminated: { exitCode: 0, ...(ms === undefined ? {} : { finishedAt: iso(ms) }) } },
});
const running = { name: 'c', state: { running: {} } };
const podFinished = (phase: string, ms: number): Pod =>
  ({ metadata: {}, status: { phase, containerStatuses: [terminatedAt(ms)] } }) as Pod;

describe('TestNewBackoffRecord', () => {
  const cases: [string, BackoffRecord | undefined, number[], number[], BackoffRecord][] = [
    [
      'Empty backoff store and one new failure',
      undefined,
      [],
      [T],
      { key: 'key', lastFailureTime: T, failuresAfterLastSuccess: 1 },
    ],
    [
      'Empty backoff store and two new failures',
      undefined,
      [],
      [T, T - 1],
      { key: 'key', lastFailureTime: T, failuresAfterLastSuccess: 2 },
    ],
    [
      'Empty backoff store, two failures followed by success',
      undefined,
      [T],
      [T - 2, T - 1],
      { key: 'key', failuresAfterLastSuccess: 0 },
    ],
    [
      'Empty backoff store, two failures, one success and two more failures',
      undefined,
      [T - 2],
      [T, T - 4, T - 3, T - 1],
      { key: 'key', lastFailureTime: T, failuresAfterLastSuccess: 2 },
    ],
    [
      'Backoff store having failure count 2 and one new failure',
      { key: 'key', failuresAfterLastSuccess: 2 },
      [],
      [T],
      { key: 'key', lastFailureTime: T, failuresAfterLastSuccess: 3 },
    ],
    [
      'Empty backoff store with success and failure at same timestamp',
      undefined,
      [T],
      [T],
      { key: 'key', failuresAfterLastSuccess: 0 },
    ],
    ['Empty backoff store with no success/failure', undefined, [], [], { key: 'key', failuresAfterLastSuccess: 0 }],
    ['Empty backoff store with one success', undefined, [T], [], { key: 'key', failuresAfterLastSuccess: 0 }],
  ];
  it.each(cases)('%s', (_name, initial, succeeded, failed, want) => {
    const store = new BackoffStore();
    if (initial) store.update(initial);
    const got = store.newRecord(
      'key',
      succeeded.map((t) => podFinished('Succeeded', t)),
      failed.map((t) => podFinished('Failed', t)),
    );
    expect({ ...got, lastFailureTime: got.lastFailureTime }).toEqual({ lastFailureTime: undefined, ...want });
  });
});

describe('TestGetFinishedTime', () => {
  const cases: [string, Pod, number][] = [
    [
      'Pod with multiple containers and all containers terminated',
      {
        metadata: {},
        status: { containerStatuses: [terminatedAt(T - 1000), terminatedAt(T), terminatedAt(T - 2000)] },
      } as Pod,
      T,
    ],
    [
      'Pod with multiple containers; two containers in terminated state and one in running state; fallback to deletionTimestamp',
      {
        metadata: { deletionTimestamp: iso(T) },
        status: { containerStatuses: [terminatedAt(T - 1000), running, terminatedAt(T - 2000)] },
      } as Pod,
      T,
    ],
    [
      'fallback to deletionTimestamp',
      { metadata: { deletionTimestamp: iso(T) }, status: { containerStatuses: [running] } } as Pod,
      T,
    ],
    [
      'fallback to deletionTimestamp, decremented by grace period',
      {
        metadata: { deletionTimestamp: iso(T), deletionGracePeriodSeconds: 30 },
        status: { containerStatuses: [running] },
      } as Pod,
      T - 30_000,
    ],
    [
      'fallback to PodReady.LastTransitionTime when status of the condition is False',
      {
        metadata: {},
        status: {
          containerStatuses: [terminatedAt()],
          conditions: [{ type: 'Ready', status: 'False', reason: 'PodFailed', lastTransitionTime: iso(T) }],
        },
      } as Pod,
      T,
    ],
    [
      'skip fallback to PodReady.LastTransitionTime when status of the condition is True',
      {
        metadata: { deletionTimestamp: iso(T) },
        status: {
          containerStatuses: [terminatedAt()],
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(T - 30_000) }],
        },
      } as Pod,
      T,
    ],
    [
      'fallback to creationTimestamp',
      { metadata: { creationTimestamp: iso(T) }, status: { containerStatuses: [terminatedAt()] } } as Pod,
      T,
    ],
    [
      'Pod with init container and all containers terminated',
      {
        metadata: {},
        status: { containerStatuses: [terminatedAt(T - 1000)], initContainerStatuses: [terminatedAt(T)] },
      } as Pod,
      T,
    ],
  ];
  it.each(cases)('%s', (_name, pod, want) => expect(finishedTime(pod)).toBe(want));
});

describe('TestGetRemainingBackoffTime', () => {
  const cases: [string, number, number | undefined, number, number][] = [
    ['no failures', 0, undefined, 0, 0],
    ['one failure; current time and failure time are same', 1, T, T, 5],
    ['one failure; current time == 1 second + failure time', 1, T, T + 1000, 4],
    ['one failure; current time == expected backoff time', 1, T, T + 5000, 0],
    ['one failure; current time == expected backoff time + 1 Second', 1, T, T + 6000, 0],
    ['three failures; current time and failure time are same', 3, T, T, 20],
    ['eight failures; current time and failure time are same; backoff not exceeding maxBackoff', 8, T, T, 640],
    ['nine failures; current time and failure time are same; backoff exceeding maxBackoff', 9, T, T, 700],
  ];
  it.each(cases)('%s', (_name, failures, last, now, wantSeconds) => {
    const record: BackoffRecord = { key: 'k', failuresAfterLastSuccess: failures, lastFailureTime: last };
    expect(remainingTime(record, now, 5000, 700_000) / 1000).toBe(wantSeconds);
  });
});

describe('TestGetRemainingBackoffTimePerIndex', () => {
  it('no failures', () => expect(remainingTimePerIndex(undefined, T, 5000, 700_000)).toBe(0));
  it('two prev failures; current time and failure time are same', () => {
    const pod = buildPod().phase('Failed').indexFailureCount('2').deletionTimestamp(T).pod;
    expect(remainingTimePerIndex(pod, T, 5000, 700_000) / 1000).toBe(20);
  });
  it('one prev failure counted and one ignored; current time and failure time are same', () => {
    const pod = buildPod().phase('Failed').indexFailureCount('1').deletionTimestamp(T).pod;
    pod.metadata.annotations![INDEX_IGNORED_FAILURE_COUNT] = '1';
    expect(remainingTimePerIndex(pod, T, 5000, 700_000) / 1000).toBe(20);
  });
});
