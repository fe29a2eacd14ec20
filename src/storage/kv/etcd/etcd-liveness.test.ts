/** The shared liveness probe that ends watches when etcd stops answering. */
import { describe, expect, it } from 'vitest';
import { KvError } from '../types.js';
import { EtcdLiveness } from './etcd-liveness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EtcdLiveness', () => {
  it('tells every subscriber once after consecutive failed probes, and probes only while subscribed', async () => {
    let up = true;
    let probes = 0;
    const liveness = new EtcdLiveness(
      async () => {
        probes++;
        if (!up) throw new Error('4 DEADLINE_EXCEEDED: Deadline exceeded');
      },
      { intervalMs: 20, failuresToDown: 2 },
    );
    await sleep(60);
    expect(probes).toBe(0);
    const seen: KvError[] = [];
    const unsubscribeA = liveness.subscribe((err) => seen.push(err));
    liveness.subscribe((err) => seen.push(err));
    await sleep(70);
    expect(probes).toBeGreaterThan(1);
    expect(seen).toEqual([]);
    up = false;
    await sleep(70);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      code: 'Unavailable',
      message: expect.stringMatching(/2 consecutive liveness probes failed, last: 4 DEADLINE_EXCEEDED/),
    });
    unsubscribeA();
    // Everyone was told and dropped: probing stops.
    const after = probes;
    await sleep(70);
    expect(probes).toBe(after);
    liveness.close();
  });

  it('a single failed probe followed by a good one is not an outage', async () => {
    const results = [true, false, true, false, true, true, true, true];
    const liveness = new EtcdLiveness(
      async () => {
        if (results.shift() === false) throw new Error('blip');
      },
      { intervalMs: 10, failuresToDown: 2 },
    );
    let down = false;
    liveness.subscribe(() => (down = true));
    await sleep(150);
    expect(results.length).toBeLessThan(3);
    expect(down).toBe(false);
    liveness.close();
  });
});
