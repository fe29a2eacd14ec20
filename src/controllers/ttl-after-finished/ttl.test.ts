/**
 * Upstream 1.33 pkg/controller/ttlafterfinished/ttlafterfinished_controller_test.go TestTimeLeft,
 * ported, and needsCleanup (the controller's filter) on the same jobs.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { needsCleanup, timeLeft } from './ttl.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** upstream newJob(completionTime, failedTime, ttl). */
function newJob(completedAt: number | undefined, failedAt: number | undefined, ttl: number | undefined): Job {
  const conditions = [];
  if (completedAt !== undefined)
    conditions.push({ type: 'Complete', status: 'True', lastTransitionTime: iso(completedAt) });
  if (failedAt !== undefined) conditions.push({ type: 'Failed', status: 'True', lastTransitionTime: iso(failedAt) });
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'foobar', namespace: 'default' },
    spec: { ...(ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl }) },
    status: { conditions },
  } as Job;
}

describe('TestTimeLeft', () => {
  const cases: [
    string,
    number | undefined,
    number | undefined,
    number | undefined,
    string | undefined,
    number,
    number,
  ][] = [
    ['Error case: Job unfinished', undefined, undefined, 100, 'should not be cleaned up', 0, 0],
    ['Error case: Job completed now, no TTL', NOW, undefined, undefined, 'should not be cleaned up', 0, 0],
    ['Job completed now, 0s TTL', NOW, undefined, 0, undefined, 0, NOW],
    ['Job completed now, 10s TTL', NOW, undefined, 10, undefined, 10, NOW + 10_000],
    ['Job completed 10s ago, 15s TTL', NOW - 10_000, undefined, 15, undefined, 5, NOW + 5_000],
    ['Error case: Job failed now, no TTL', undefined, NOW, undefined, 'should not be cleaned up', 0, 0],
    ['Job failed now, 0s TTL', undefined, NOW, 0, undefined, 0, NOW],
    ['Job failed now, 10s TTL', undefined, NOW, 10, undefined, 10, NOW + 10_000],
    ['Job failed 10s ago, 15s TTL', undefined, NOW - 10_000, 15, undefined, 5, NOW + 5_000],
  ];
  it.each(cases)('%s', (_name, completed, failed, ttl, errText, wantLeftSeconds, wantExpireAt) => {
    const job = newJob(completed, failed, ttl);
    if (errText) {
      expect(() => timeLeft(job, NOW)).toThrow(errText);
      expect(needsCleanup(job)).toBe(false);
      return;
    }
    expect(needsCleanup(job)).toBe(true);
    expect(timeLeft(job, NOW)).toEqual({ remainingMs: wantLeftSeconds * 1000, expireAt: wantExpireAt });
  });

  it('a finished condition without a time cannot be timed', () => {
    const job = newJob(NOW, undefined, 5);
    delete job.status!.conditions![0]!.lastTransitionTime;
    expect(() => timeLeft(job, NOW)).toThrow('unable to find the time when the Job default/foobar finished');
  });
});
