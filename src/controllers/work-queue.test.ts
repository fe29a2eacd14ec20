import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { WorkQueue } from './work-queue.js';

const logger = pino({ level: 'silent' });
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('WorkQueue', () => {
  it('processes up to `workers` keys at once, and one key never twice at once', async () => {
    let running = 0;
    let most = 0;
    const perKey = new Map<string, number>();
    const seen: string[] = [];
    const queue = new WorkQueue<string>(
      (k) => k,
      async (k) => {
        running++;
        most = Math.max(most, running);
        perKey.set(k, (perKey.get(k) ?? 0) + 1);
        expect(perKey.get(k)).toBe(1);
        await tick(5);
        seen.push(k);
        perKey.set(k, perKey.get(k)! - 1);
        running--;
      },
      logger,
      3,
    );
    for (const k of ['a', 'b', 'c', 'd', 'e']) queue.add(k);
    await tick(1);
    queue.add('a'); // while a is processed: once more, after it
    await tick(60);
    expect(most).toBe(3);
    expect(seen.sort()).toEqual(['a', 'a', 'b', 'c', 'd', 'e']);
  });

  it('folds a burst of one key, waiting for a worker, into one run', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue<{ k: string; v: number }>(
      (i) => i.k,
      async (i) => void seen.push(`${i.k}${i.v}`),
      logger,
    );
    queue.add({ k: 'x', v: 1 });
    queue.add({ k: 'y', v: 1 });
    queue.add({ k: 'y', v: 2 });
    queue.add({ k: 'y', v: 3 });
    await tick(5);
    expect(seen).toEqual(['x1', 'y3']);
  });

  it('retries a failed item after its backoff', async () => {
    let calls = 0;
    const queue = new WorkQueue<string>(
      (k) => k,
      async () => {
        if (++calls === 1) throw new Error('first time fails');
      },
      logger,
    );
    queue.add('k');
    await tick(400);
    expect(calls).toBe(2);
    queue.stop();
  });

  it('property: every key added is processed after its last add, and never concurrently', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.nat(3)), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 4 }),
        async (adds, workers) => {
          const inFlight = new Set<string>();
          const lastAdded = new Map<string, number>();
          const lastStarted = new Map<string, number>();
          let clock = 0;
          let overlap = false;
          const queue = new WorkQueue<string>(
            (k) => k,
            async (k) => {
              if (inFlight.has(k)) overlap = true;
              inFlight.add(k);
              lastStarted.set(k, ++clock);
              await tick(1);
              inFlight.delete(k);
            },
            logger,
            workers,
          );
          for (const [k, wait] of adds) {
            lastAdded.set(k, ++clock);
            queue.add(k);
            if (wait) await tick(wait);
          }
          await tick(20);
          expect(overlap).toBe(false);
          for (const [k, added] of lastAdded) expect(lastStarted.get(k) ?? 0).toBeGreaterThan(added);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('WorkQueue.addAfter', () => {
  it('adds an item after its delay, a waiting key keeping the sooner time, and nothing after stop', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue<string>(
      (k) => k,
      async (k) => void seen.push(k),
      logger,
    );
    queue.addAfter('a', 40);
    queue.addAfter('a', 10); // sooner: replaces the 40 ms wait
    queue.addAfter('a', 60); // later: ignored while 10 ms is waiting
    queue.addAfter('b', 0); // no delay: at once
    expect(seen).toEqual(['b']);
    await tick(30);
    expect(seen).toEqual(['b', 'a']);
    await tick(60);
    expect(seen).toEqual(['b', 'a']);
    queue.addAfter('c', 10);
    queue.stop();
    await tick(30);
    expect(seen).toEqual(['b', 'a']);
  });
});
