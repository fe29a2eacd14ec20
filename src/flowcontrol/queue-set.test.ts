import { describe, expect, it } from 'vitest';
import { QueueSet, type QueuedRequest, type WorkEstimate } from './queue-set.js';

const ONE: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const queuing = { queues: 8, handSize: 2, queueLengthLimit: 3 };

function setWith(limit: number, config = queuing) {
  let t = 0;
  const set = new QueueSet(config, () => t);
  set.configure(config, limit);
  return { set, tick: (ms: number) => (t += ms) };
}

const admitted = (r: QueuedRequest | string): QueuedRequest => {
  if (typeof r === 'string') throw new Error(`rejected: ${r}`);
  return r;
};

describe('QueueSet', () => {
  it('executes up to the concurrency limit at once, queues the rest, and dispatches one per finished request', async () => {
    const { set } = setWith(2);
    const reqs = [1n, 2n, 3n].map((h) => admitted(set.startRequest(ONE, h)));
    expect(reqs.map((r) => r.state)).toEqual(['executing', 'executing', 'waiting']);
    expect(set.totSeatsInUse).toBe(2);
    reqs[0].finish();
    expect(reqs[2].state).toBe('executing');
    await expect(reqs[2].decided).resolves.toBe(true);
    expect(set.totRequestsWaiting).toBe(0);
  });

  it("serves a light flow before a heavy flow's backlog (fair queuing)", () => {
    const { set, tick } = setWith(1, { queues: 64, handSize: 1, queueLengthLimit: 50 });
    // Find two hashes dealt different queues: a hand of one card is the hash modulo 64.
    const heavy = 5n;
    const light = 9n;
    const running = admitted(set.startRequest(ONE, heavy));
    const backlog = Array.from({ length: 10 }, () => admitted(set.startRequest(ONE, heavy)));
    tick(1);
    const lone = admitted(set.startRequest(ONE, light));
    const order: QueuedRequest[] = [];
    let current = running;
    for (let i = 0; i < 3; i++) {
      tick(3);
      current.finish();
      current = [...backlog, lone].find((r) => r.state === 'executing' && !order.includes(r)) as QueuedRequest;
      order.push(current);
    }
    // The light flow's only request goes after at most one more of the heavy flow's.
    expect(order.slice(0, 2)).toContain(lone);
  });

  it('rejects with queue-full when every seat is taken and the queue holds its limit', () => {
    const { set } = setWith(1, { queues: 1, handSize: 1, queueLengthLimit: 2 });
    admitted(set.startRequest(ONE, 1n));
    admitted(set.startRequest(ONE, 1n));
    admitted(set.startRequest(ONE, 1n));
    expect(set.startRequest(ONE, 1n)).toBe('queue-full');
  });

  it('without queues (Reject), executes what fits and rejects the rest with concurrency-limit', () => {
    const { set } = setWith(2, { queues: 0, handSize: 0, queueLengthLimit: 0 });
    admitted(set.startRequest(ONE, 0n));
    admitted(set.startRequest({ ...ONE, initialSeats: 1 }, 0n));
    expect(set.startRequest(ONE, 0n)).toBe('concurrency-limit');
  });

  it('exempt: never waits, whatever the limit', () => {
    const { set } = setWith(0, { queues: -1, handSize: 0, queueLengthLimit: 0 });
    const all = Array.from({ length: 20 }, () => admitted(set.startRequest(ONE, 0n)));
    expect(all.every((r) => r.state === 'executing')).toBe(true);
  });

  it('a cancelled waiting request leaves its queue and is not executed', async () => {
    const { set } = setWith(1);
    const first = admitted(set.startRequest(ONE, 1n));
    const second = admitted(set.startRequest(ONE, 1n));
    second.cancel('cancelled');
    await expect(second.decided).resolves.toBe(false);
    expect(set.totRequestsWaiting).toBe(0);
    first.finish();
    expect(second.state).toBe('removed');
    expect(set.idle).toBe(true);
    expect(set.counts).toEqual({ dispatched: 1, rejected: 0, timedOut: 0, cancelled: 1 });
  });

  it('a request with final seats keeps them for its additional latency after it finishes', async () => {
    const { set } = setWith(4);
    const write = admitted(set.startRequest({ initialSeats: 1, finalSeats: 3, additionalLatencyMs: 20 }, 1n));
    expect(set.totSeatsInUse).toBe(3);
    write.finish();
    expect(set.totSeatsInUse).toBe(3);
    await new Promise((r) => setTimeout(r, 40));
    expect(set.totSeatsInUse).toBe(0);
  });

  it('a request wider than the whole limit runs alone', () => {
    const { set } = setWith(2);
    const small = admitted(set.startRequest(ONE, 1n));
    const wide = admitted(set.startRequest({ initialSeats: 5, finalSeats: 0, additionalLatencyMs: 0 }, 2n));
    expect(wide.state).toBe('waiting');
    small.finish();
    expect(wide.state).toBe('executing');
  });
});
