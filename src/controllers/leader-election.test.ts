import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryKvStore } from '../storage/kv/memory/memory-store.js';
import { KvError, type KvStore } from '../storage/kv/types.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';

const silent = pino({ level: 'silent' });

function replica(
  kv: KvStore,
  identity: string,
  running: Set<string>,
  options: LeaderElectionOptions = { leaseDurationSeconds: 1, retryPeriodSeconds: 1 },
) {
  return new LeaderElector(
    kv,
    '/registry/leases/controllers',
    identity,
    () => {
      running.add(identity);
      return () => running.delete(identity);
    },
    silent,
    options,
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

  it('a waiting replica takes over when the lease runs out, not a retry period later', async () => {
    const kv = new MemoryKvStore();
    const running = new Set<string>();
    const slow = { leaseDurationSeconds: 1, renewDeadlineSeconds: 1, retryPeriodSeconds: 30 };
    const a = replica(kv, 'a', running, slow);
    const b = replica(kv, 'b', running, slow);
    await a.tick(); // a leads, then dies without giving the lease up
    const died = Date.now();
    b.start();
    try {
      while (!b.leading && Date.now() - died < 3000) await new Promise((r) => setTimeout(r, 20));
      expect(b.leading).toBe(true);
      expect(Date.now() - died).toBeLessThan(1500);
    } finally {
      await b.stop();
    }
  });

  it('a leader that cannot renew steps down after the renew deadline, before its lease ends', async () => {
    const kv = new MemoryKvStore();
    let failing = false;
    const flaky = new Proxy(kv, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if (failing && typeof v === 'function')
          return () => Promise.reject(new KvError('Unavailable', 'etcd unavailable'));
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const running = new Set<string>();
    const a = replica(flaky, 'a', running, { leaseDurationSeconds: 2, renewDeadlineSeconds: 1, retryPeriodSeconds: 1 });
    await a.tick();
    expect(a.leading).toBe(true);
    failing = true;
    await a.tick();
    expect(a.leading).toBe(true); // one failed renewal is not enough
    await new Promise((r) => setTimeout(r, 1100));
    await a.tick();
    expect(a.leading).toBe(false);
    expect(running.size).toBe(0);
  });
});
