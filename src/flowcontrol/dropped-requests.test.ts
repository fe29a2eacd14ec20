import { describe, expect, it } from 'vitest';
import { DroppedRequests } from './dropped-requests.js';

describe('DroppedRequests', () => {
  it('starts at 1 s, doubles under sustained drops (at most once per current value), and eases off when they stop', () => {
    let now = 1_000_000;
    const drops = new DroppedRequests(() => now);
    expect(drops.retryAfter('workload-low')).toBe(1);
    const second = (count: number) => {
      for (let i = 0; i < count; i++) drops.record('workload-low');
      now += 1000;
    };
    second(5);
    second(5); // the first second's 5 drops (>= 3 x 1) double it
    expect(drops.retryAfter('workload-low')).toBe(2);
    second(10);
    second(10);
    expect(drops.retryAfter('workload-low')).toBe(4);
    expect(drops.retryAfter('global-default')).toBe(1);
    // Calm seconds: one drop now and then lowers it by one per new second seen.
    for (let i = 0; i < 10; i++) {
      now += 5000;
      second(1);
    }
    expect(drops.retryAfter('workload-low')).toBe(1);
  });

  it('never asks for more than 32 s', () => {
    let now = 0;
    const drops = new DroppedRequests(() => now);
    for (let s = 0; s < 200; s++) {
      for (let i = 0; i < 200; i++) drops.record('pl');
      now += 1000;
    }
    expect(drops.retryAfter('pl')).toBe(32);
  });
});
