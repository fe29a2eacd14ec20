import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue } from './deadline-queue.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A queue on the fake clock, recording when each item fired. */
function recording(resolutionMs = 100) {
  const fired: [string, number][] = [];
  const queue = new DeadlineQueue<string>(
    (item) => fired.push([item, Date.now()]),
    resolutionMs,
    () => Date.now(),
  );
  return { queue, fired };
}

describe('DeadlineQueue', () => {
  it('fires each deadline once, never early and at most one resolution late', () => {
    const { queue, fired } = recording();
    const start = Date.now();
    queue.add('a', 250);
    queue.add('b', 1000);
    queue.add('c', 0);
    vi.advanceTimersByTime(5000);
    expect(fired.map(([item]) => item)).toEqual(['c', 'a', 'b']);
    for (const [item, at] of fired) {
      const due = start + { a: 250, b: 1000, c: 0 }[item]!;
      expect(at).toBeGreaterThanOrEqual(due);
      expect(at).toBeLessThanOrEqual(due + 100);
    }
    expect(queue.size).toBe(0);
  });

  it('does not fire a deleted deadline, and keeps the others of its bucket', () => {
    const { queue, fired } = recording();
    const a = queue.add('a', 500);
    queue.add('b', 500);
    queue.delete('a', a);
    vi.advanceTimersByTime(1000);
    expect(fired.map(([item]) => item)).toEqual(['b']);
  });

  it('arms for an earlier deadline added after a later one', () => {
    const { queue, fired } = recording();
    queue.add('late', 60_000);
    queue.add('early', 200);
    vi.advanceTimersByTime(300);
    expect(fired.map(([item]) => item)).toEqual(['early']);
    vi.advanceTimersByTime(60_000);
    expect(fired.map(([item]) => item)).toEqual(['early', 'late']);
  });

  it('reaches deadlines past what one Node timer can wait (2^31-1 ms)', () => {
    const { queue, fired } = recording(1000);
    const days40 = 40 * 24 * 3600 * 1000;
    queue.add('far', days40);
    vi.advanceTimersByTime(days40 - 1000);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(fired.map(([item]) => item)).toEqual(['far']);
  });

  it('keeps firing the others when one throws', () => {
    const seen: string[] = [];
    const queue = new DeadlineQueue<string>(
      (item) => {
        seen.push(item);
        if (item === 'bad') throw new Error('boom');
      },
      100,
      () => Date.now(),
    );
    queue.add('bad', 100);
    queue.add('good', 100);
    queue.add('later', 300);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['bad', 'good', 'later']);
  });

  it('fires every deadline not deleted, in due order, whatever the order of adds and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 10_000 }), drop: fc.boolean() }), { maxLength: 60 }),
        (plans) => {
          vi.setSystemTime(0);
          const { queue, fired } = recording();
          const keys = plans.map((p, i) => queue.add(String(i), p.delay));
          plans.forEach((p, i) => p.drop && queue.delete(String(i), keys[i]));
          vi.advanceTimersByTime(10_200);
          const kept = plans.map((p, i) => ({ ...p, i })).filter((p) => !p.drop);
          expect(fired.map(([item]) => Number(item)).sort((x, y) => x - y)).toEqual(kept.map((p) => p.i));
          for (const [item, at] of fired) {
            const delay = plans[Number(item)].delay;
            expect(at).toBeGreaterThanOrEqual(delay);
            expect(at).toBeLessThanOrEqual(delay + 100);
          }
          const times = fired.map(([, at]) => at);
          expect(times).toEqual([...times].sort((x, y) => x - y));
        },
      ),
      { numRuns: 200 },
    );
  });
});
