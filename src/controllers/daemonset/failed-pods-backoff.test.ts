/**
 * client-go flowcontrol.Backoff as the DaemonSet controller uses it (backoff_test.go's
 * TestSlowBackoff, TestBackoffReset, TestBackoffHighWaterMark, TestBackoffGC, in
 * IsInBackOffSinceUpdate terms).
 */
import { describe, expect, it } from 'vitest';
import { FailedPodsBackoff } from './failed-pods-backoff.js';

describe('FailedPodsBackoff', () => {
  it('doubles from the initial delay up to the maximum', () => {
    const b = new FailedPodsBackoff(1_000, 5_000);
    const delays = [];
    for (let t = 0; t < 5; t++) {
      b.next('k', t);
      delays.push(b.get('k'));
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('is in back-off until the delay passed since the last update', () => {
    const b = new FailedPodsBackoff(1_000, 60_000);
    expect(b.isInBackOffSinceUpdate('k', 0)).toBe(false);
    b.next('k', 0);
    expect(b.isInBackOffSinceUpdate('k', 999)).toBe(true);
    expect(b.isInBackOffSinceUpdate('k', 1_000)).toBe(false);
  });

  it('starts over after twice the maximum without updates, and GC forgets such entries', () => {
    const b = new FailedPodsBackoff(1_000, 5_000);
    b.next('k', 0);
    b.next('k', 1);
    expect(b.get('k')).toBe(2_000);
    b.next('k', 20_000);
    expect(b.get('k')).toBe(1_000);
    b.gc(30_001);
    expect(b.get('k')).toBe(0);
  });

  it('keys by DaemonSet uid, observed generation and node', () =>
    expect(FailedPodsBackoff.key('uid-1', 3, 'node-a')).toBe('uid-1/3/node-a'));
});
