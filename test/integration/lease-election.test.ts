/**
 * client-go's leader election (k8s.io/client-go tools/leaderelection, LeaseLock) against the
 * server, in raw HTTP as client-go sends it: GET the Lease, POST it when absent, else PUT it with
 * the resourceVersion read (or, for the leader's fast path, the one of its last write), lease
 * 15 s, retry period 2 s (acquisition jittered by 1.2 as wait.JitterUntil), renew deadline 10 s.
 * Two candidates race for one Lease: one holds it and renews it, the other waits; the holder
 * crashes and the other takes the Lease once it has not changed for 15 s; that one releases it
 * (ReleaseOnCancel) and the first, restarted, takes it at once (about 20 s in all). Each candidate records when it
 * believed it led; no two of those intervals overlap, and the Lease's transitions count every
 * handover.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'default';
const NAME = 'election';
const PATH = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`;
const LEASE_SECONDS = 15;
const RETRY_MS = 2000;
const RENEW_DEADLINE_MS = 10_000;

type LeaseSpec = {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
};
type Lease = { metadata: { name: string; resourceVersion?: string }; spec?: LeaseSpec };

/** metav1.MicroTime as client-go writes it: RFC 3339 with six fraction digits. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One candidate: client-go's LeaderElector with a LeaseLock. */
class Candidate {
  /** [start, end) of each time this candidate believed it was the leader (end Infinity while it does). */
  readonly led: [number, number][] = [];
  private lease: Lease | null = null; // LeaseLock's cached object (last read or written)
  private observed: LeaseSpec | null = null;
  private observedRaw = '';
  private observedTime = 0;
  private stopped = false;
  private done: Promise<void> = Promise.resolve();

  constructor(readonly id: string) {}

  get leading(): boolean {
    return this.observed?.holderIdentity === this.id;
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + (this.observed?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private async update(spec: LeaseSpec): Promise<boolean> {
    const body = { ...this.lease!, spec };
    const res = await srv.api('PUT', `${PATH}/${NAME}`, body);
    if (res.status !== 200) return false;
    this.lease = res.body;
    return true;
  }

  private setObserved(spec: LeaseSpec, raw = JSON.stringify(spec)): void {
    this.observed = spec;
    this.observedRaw = raw;
    this.observedTime = Date.now();
  }

  /** leaderelection.go tryAcquireOrRenew. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const record: LeaseSpec = {
      holderIdentity: this.id,
      leaseDurationSeconds: LEASE_SECONDS,
      renewTime: microTime(now),
      acquireTime: microTime(now),
    };
    // 1. The leader's fast path: update from the cached lease.
    if (this.leading && this.isLeaseValid(now) && this.lease) {
      const spec = {
        ...record,
        acquireTime: this.observed!.acquireTime,
        leaseTransitions: this.observed!.leaseTransitions,
      };
      if (await this.update(spec)) {
        this.setObserved(spec);
        return true;
      }
    }
    // 2. Get, or create when absent.
    const got = await srv.api('GET', `${PATH}/${NAME}`);
    if (got.status === 404) {
      const spec = { ...record, leaseTransitions: 0 };
      const created = await srv.api('POST', PATH, { metadata: { name: NAME, namespace: NS }, spec });
      if (created.status !== 201) return false;
      this.lease = created.body;
      this.setObserved(spec);
      return true;
    }
    if (got.status !== 200) return false;
    this.lease = got.body;
    const old: LeaseSpec = got.body.spec ?? {};
    const raw = JSON.stringify(old);
    // 3. A changed record restarts the wait.
    if (raw !== this.observedRaw) this.setObserved(old, raw);
    if (old.holderIdentity && this.isLeaseValid(now) && !this.leading) return false;
    // 4. Take or keep it.
    const spec = this.leading
      ? { ...record, acquireTime: old.acquireTime, leaseTransitions: old.leaseTransitions }
      : { ...record, leaseTransitions: (old.leaseTransitions ?? 0) + 1 };
    if (!(await this.update(spec))) return false;
    this.setObserved(spec);
    return true;
  }

  /** LeaderElector.Run: acquire (jittered retries), then renew until the deadline passes or it stops. */
  start(): void {
    // A (re)started process knows nothing of the Lease yet.
    this.lease = null;
    this.observed = null;
    this.observedRaw = '';
    this.observedTime = 0;
    this.stopped = false;
    this.done = (async () => {
      while (!this.stopped) {
        if (await this.tryAcquireOrRenew()) break;
        await sleep(RETRY_MS * (1 + Math.random() * 1.2));
      }
      if (this.stopped) return;
      const since = Date.now();
      this.led.push([since, Infinity]);
      let lastRenew = since;
      while (!this.stopped) {
        await sleep(RETRY_MS);
        if (this.stopped) return;
        if (await this.tryAcquireOrRenew()) lastRenew = Date.now();
        else if (Date.now() - lastRenew > RENEW_DEADLINE_MS) {
          this.endLeading();
          return;
        }
      }
    })();
  }

  private endLeading(): void {
    const last = this.led.at(-1);
    if (last && last[1] === Infinity) last[1] = Date.now();
  }

  /** A crash: the loop stops, nothing is written. */
  async crash(): Promise<void> {
    this.stopped = true;
    this.endLeading();
    await this.done;
  }

  /** ReleaseOnCancel: stop, and as the leader write an empty holder with a 1 s lease. */
  async release(): Promise<void> {
    this.stopped = true;
    await this.done;
    if (!this.leading) return;
    this.endLeading();
    const now = microTime(Date.now());
    const spec = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: now,
      acquireTime: now,
      leaseTransitions: this.observed?.leaseTransitions,
    };
    expect(await this.update(spec)).toBe(true);
    this.setObserved(spec);
  }
}

const lease = async (): Promise<LeaseSpec> => (await srv.api('GET', `${PATH}/${NAME}`)).body.spec;

/** Whether two sets of [start, end) intervals overlap anywhere. */
const overlaps = (a: [number, number][], b: [number, number][]) =>
  a.some(([s1, e1]) => b.some(([s2, e2]) => s1 < e2 && s2 < e1));

describe('client-go leader election on a coordination.k8s.io/v1 Lease', () => {
  it('holds and hands over the Lease between two candidates, never with two leaders', { timeout: 40_000 }, async () => {
    const a = new Candidate('candidate-a');
    const b = new Candidate('candidate-b');
    a.start();
    b.start();
    // The race: exactly one create wins; the other finds the Lease held, and the winner renews it.
    await expect.poll(() => a.leading || b.leading, { timeout: 5000 }).toBe(true);
    const [leader, follower] = a.leading ? [a, b] : [b, a];
    await expect
      .poll(
        async () => {
          const spec = await lease();
          return Date.parse(spec.renewTime!) > Date.parse(spec.acquireTime!);
        },
        { timeout: 5000, interval: 200 },
      )
      .toBe(true);
    expect(follower.leading).toBe(false);
    const held = await lease();
    expect(held).toMatchObject({ holderIdentity: leader.id, leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(held.renewTime).toMatch(/\.\d{6}Z$/);

    // The leader crashes: the follower waits out the 15 s lease from the last change it saw
    // (the leader's last renewal, at most one retry period before the crash).
    const lastRenewal = Date.parse((await lease()).renewTime!);
    await leader.crash();
    await expect.poll(() => follower.leading, { timeout: 25_000, interval: 100 }).toBe(true);
    expect(follower.led[0]![0] - lastRenewal).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000);
    expect(await lease()).toMatchObject({ holderIdentity: follower.id, leaseTransitions: 1 });

    // The new leader releases; the first candidate, restarted, takes the Lease at once.
    await follower.release();
    expect((await lease()).holderIdentity).toBe('');
    leader.start();
    await expect.poll(() => leader.leading, { timeout: 6000, interval: 100 }).toBe(true);
    expect(await lease()).toMatchObject({ holderIdentity: leader.id, leaseTransitions: 2 });
    await leader.crash();

    expect(overlaps(a.led, b.led)).toBe(false);
    expect(a.led.length + b.led.length).toBe(3);
  });
});
