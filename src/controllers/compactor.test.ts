import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryKvStore } from '../storage/kv/memory/memory-store.js';
import { Compactor } from './compactor.js';

const silent = pino({ level: 'silent' });

describe('Compactor', () => {
  it('compacts to the revision recorded one period earlier', async () => {
    const kv = new MemoryKvStore();
    const c = new Compactor(kv, silent, 300);
    await kv.create('/a', '1');
    expect(await c.tick()).toBe(0); // first win: records the revision only
    const recorded = await kv.currentRevision();
    await kv.create('/b', '2');
    expect(await c.tick()).toBe(recorded);
    await expect(kv.range({ start: '/a', revision: recorded - 1 })).rejects.toMatchObject({ code: 'Compacted' });
  });

  it('lets only one of several replicas compact per period', async () => {
    const kv = new MemoryKvStore();
    const replicas = [new Compactor(kv, silent, 300), new Compactor(kv, silent, 300), new Compactor(kv, silent, 300)];
    const compactions: number[] = [];
    for (let period = 0; period < 6; period++) {
      await kv.create(`/k${period}`, 'x');
      const results = await Promise.all(replicas.map((r) => r.tick()));
      compactions.push(results.filter((r) => r > 0).length);
    }
    expect(Math.max(...compactions)).toBe(1);
    expect(compactions.filter((n) => n === 1).length).toBeGreaterThan(0);
  });
});
