/**
 * Upstream 1.33 pkg/controller/tainteviction/timed_workers_test.go, ported: TestExecute,
 * TestExecuteDelayed, TestCancel, TestCancelAndReadd (five works v1..v5), on vitest's fake clock.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { TimedWorkerQueue } from './timed-workers.js';

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
afterEach(() => vi.useRealTimers());

const KEYS = ['1', '2', '3', '4', '5'];

function setup() {
  const done: string[] = [];
  const queue = new TimedWorkerQueue(async (key) => void done.push(key));
  return { done, queue };
}

it('TestExecute: work due now runs at once', async () => {
  const { done, queue } = setup();
  const now = Date.now();
  for (const k of KEYS) queue.addWork(k, now, now);
  // Adding work for a key that exists does nothing.
  queue.addWork('5', now, now);
  await vi.advanceTimersByTimeAsync(0);
  expect(done).toEqual(KEYS);
});

it('TestExecuteDelayed: work runs when its time comes, not before', async () => {
  const { done, queue } = setup();
  const now = Date.now();
  for (const k of KEYS) queue.addWork(k, now, now + 10_000);
  await vi.advanceTimersByTimeAsync(9_999);
  expect(done).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(done).toEqual(KEYS);
});

it('TestCancel: cancelled work does not run', async () => {
  const { done, queue } = setup();
  const now = Date.now();
  for (const k of KEYS) queue.addWork(k, now, now + 10_000);
  expect(queue.cancelWork('2')).toBe(true);
  expect(queue.cancelWork('4')).toBe(true);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(done).toEqual(['1', '3', '5']);
});

it('TestCancelAndReadd: work added again after a cancel runs', async () => {
  const { done, queue } = setup();
  const now = Date.now();
  for (const k of KEYS) queue.addWork(k, now, now + 10_000);
  queue.cancelWork('2');
  queue.cancelWork('4');
  queue.addWork('2', now, now + 10_000);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(done.sort()).toEqual(['1', '2', '3', '5']);
  // Work that ran stays known until cancelled: adding it again does nothing.
  queue.addWork('1', Date.now(), Date.now());
  await vi.advanceTimersByTimeAsync(0);
  expect(done.filter((k) => k === '1')).toHaveLength(1);
});
