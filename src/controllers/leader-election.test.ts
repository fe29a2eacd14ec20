import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryKvStore } from '../storage/kv/memory/memory-store.js';
import { LeaderElector } from './leader-election.js';

const silent = pino({ level: 'silent' });

function replica(kv: MemoryKvStore, identity: string, running: Set<string>) {
  return new LeaderElector(
    kv,
    '/registry/leases/controllers',
    identity,
    () => {
      running.add(identity);
      return () => running.delete(identity);
    },
    silent,
    { leaseDurationSeconds: 1, retryPeriodSeconds: 1 },
  );
}

describe('LeaderElector', () => {
  it('lets exactly one replica lead and hands over when it steps down', async () => {
    const kv = new MemoryKvStore();
    const running = new Set<string>();
    const [a, b, c] = ['a', 'b', 'c'].map((id) => replica(kv, id, running));
    await Promise.all([a.tick(), b.tick(), c.tick()]);
    expect(running.size).toBe(1);
    const leader = [a, b, c].find((r) => r.leading)!;
    await Promise.all([a.tick(), b.tick(), c.tick()]);
    expect([...running]).toEqual([leader.identity]);
    await leader.stop();
    expect(running.size).toBe(0);
    const others = [a, b, c].filter((r) => r !== leader);
    await Promise.all(others.map((r) => r.tick()));
    expect(running.size).toBe(1);
    expect(running.has(leader.identity)).toBe(false);
  });

  it('takes over from a leader that stopped renewing once its lease expired', async () => {
    const kv = new MemoryKvStore();
    const running = new Set<string>();
    const a = replica(kv, 'a', running);
    const b = replica(kv, 'b', running);
    await a.tick();
    await b.tick();
    expect([...running]).toEqual(['a']);
    await new Promise((r) => setTimeout(r, 1100)); // a crashed: no renewals
    await b.tick();
    expect(running.has('b')).toBe(true);
    await a.tick(); // a comes back and finds b leading: it stops its controllers
    expect([...running]).toEqual(['b']);
  });
});
