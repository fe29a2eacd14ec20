import { describe, expect, it } from 'vitest';
import { GrpcCode, GrpcError } from './grpc-channel.js';
import { RangeBatcher, batchable, type RangeCalls } from './range-batcher.js';
import type { RangeRequest, RangeResponse, TxnRequest, TxnResponse } from './etcd-messages.js';

const enc = (s: string) => Buffer.from(s);
const dec = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString();

/** A fake etcd holding `data` at revision 7, recording the calls made. */
function fakeEtcd(data: Record<string, string>, refuse?: GrpcError) {
  const calls: { kind: 'range' | 'txn'; keys: string[]; deadline: number }[] = [];
  const read = (req: RangeRequest): RangeResponse => {
    const key = dec(req.key);
    const kvs = key in data ? [{ key: req.key, value: enc(data[key]), mod_revision: 5 }] : [];
    return { header: { revision: 7 }, kvs, more: false, count: kvs.length };
  };
  const calls_: RangeCalls = {
    range: async (req, deadline) => {
      calls.push({ kind: 'range', keys: [dec(req.key)], deadline });
      return read(req);
    },
    txn: async (req: TxnRequest, deadline): Promise<TxnResponse> => {
      calls.push({ kind: 'txn', keys: req.success.map((op) => dec(op.request_range?.key)), deadline });
      if (refuse) throw refuse;
      // etcd leaves the inner headers' other fields out; the first one lacks it entirely here.
      const responses = req.success.map((op, i) => {
        const range = read(op.request_range!);
        return { response_range: i === 0 ? { ...range, header: undefined } : range };
      });
      return { header: { revision: 7 }, succeeded: true, responses };
    },
  };
  return { calls, kv: calls_ };
}

const valueOf = (res: RangeResponse) => (res.kvs[0] ? dec(res.kvs[0].value) : null);

describe('RangeBatcher', () => {
  it('sends the single-key reads of one turn of the event loop as one Txn, each answered with its own key', async () => {
    const etcd = fakeEtcd({ a: '1', b: '2', c: '3' });
    const batcher = new RangeBatcher(etcd.kv);
    const keys = ['a', 'b', 'missing', 'c'];
    const answers = await Promise.all(keys.map((k, i) => batcher.range({ key: enc(k) }, 1000 + i)));
    expect(answers.map(valueOf)).toEqual(['1', '2', null, '3']);
    expect(answers.every((a) => a.header?.revision === 7)).toBe(true);
    // One call, with the earliest deadline of the four.
    expect(etcd.calls).toEqual([{ kind: 'txn', keys, deadline: 1000 }]);
  });

  it('sends a lone read as a plain Range, and reads of later turns in their own calls', async () => {
    const etcd = fakeEtcd({ a: '1' });
    const batcher = new RangeBatcher(etcd.kv);
    expect(valueOf(await batcher.range({ key: enc('a') }, 50))).toBe('1');
    expect(valueOf(await batcher.range({ key: enc('a'), limit: 1 }, 60))).toBe('1');
    expect(etcd.calls.map((c) => c.kind)).toEqual(['range', 'range']);
  });

  it('holds at most maxBatch reads in one Txn', async () => {
    const etcd = fakeEtcd({ k: 'v' });
    const batcher = new RangeBatcher(etcd.kv, 4);
    const answers = await Promise.all(Array.from({ length: 10 }, () => batcher.range({ key: enc('k') }, 100)));
    expect(answers.every((a) => valueOf(a) === 'v')).toBe(true);
    expect(etcd.calls.map((c) => `${c.kind}:${c.keys.length}`)).toEqual(['txn:4', 'txn:4', 'txn:2']);
  });

  it('never batches range, revision, count, keys-only or min-mod-revision reads', async () => {
    const alone: RangeRequest[] = [
      { key: enc('a'), range_end: enc('b') },
      { key: enc('a'), revision: 3 },
      { key: enc('a'), count_only: true },
      { key: enc('a'), keys_only: true },
      { key: enc('a'), min_mod_revision: 2 },
    ];
    expect(alone.map(batchable)).toEqual([false, false, false, false, false]);
    expect(batchable({ key: enc('a'), range_end: new Uint8Array(0), limit: 1 })).toBe(true);
    const etcd = fakeEtcd({ a: '1' });
    const batcher = new RangeBatcher(etcd.kv);
    await Promise.all(alone.map((r) => batcher.range(r, 10)));
    expect(etcd.calls.map((c) => c.kind)).toEqual(['range', 'range', 'range', 'range', 'range']);
  });

  it('turns batching off for good when the store refuses a multi-range Txn (kine), answering each read alone', async () => {
    const etcd = fakeEtcd({ a: '1', b: '2' }, new GrpcError(GrpcCode.UNKNOWN, 'unsupported transaction'));
    const batcher = new RangeBatcher(etcd.kv);
    const answers = await Promise.all(['a', 'b'].map((k) => batcher.range({ key: enc(k) }, 10)));
    expect(answers.map(valueOf)).toEqual(['1', '2']);
    expect(batcher.batching).toBe(false);
    await Promise.all(['a', 'b'].map((k) => batcher.range({ key: enc(k) }, 10)));
    expect(etcd.calls.map((c) => c.kind)).toEqual(['txn', 'range', 'range', 'range', 'range']);
  });

  it("fails every read of a batch with the Txn's error when it is not a refusal, and keeps batching", async () => {
    const lost = new GrpcError(GrpcCode.UNAVAILABLE, 'connection lost', true);
    const etcd = fakeEtcd({ a: '1' }, lost);
    const batcher = new RangeBatcher(etcd.kv);
    const settled = await Promise.allSettled(['a', 'a', 'a'].map((k) => batcher.range({ key: enc(k) }, 10)));
    expect(settled.map((s) => (s.status === 'rejected' ? s.reason : s.value))).toEqual([lost, lost, lost]);
    expect(batcher.batching).toBe(true);
    const timedOut = new GrpcError(GrpcCode.DEADLINE_EXCEEDED, 'Deadline exceeded');
    const slow = fakeEtcd({ a: '1' }, timedOut);
    const slowBatcher = new RangeBatcher(slow.kv);
    await expect(
      Promise.all([slowBatcher.range({ key: enc('a') }, 1), slowBatcher.range({ key: enc('a') }, 1)]),
    ).rejects.toBe(timedOut);
    expect(slowBatcher.batching).toBe(true);
  });
});
