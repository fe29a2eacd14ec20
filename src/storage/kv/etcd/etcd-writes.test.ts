/**
 * Retried compare-and-swap writes against a fake etcd whose calls can fail after (or before)
 * being applied, as when the member that took the call dies before answering.
 */
import { BrokenCircuitError } from 'cockatiel';
import { GRPCInvalidArgumentError, GRPCResourceExhastedError, GRPCUnavailableError } from 'etcd3';
import { describe, expect, it } from 'vitest';
import type { KeyValue, TxnResult } from '../types.js';
import { isConnectionFailure, isTransient, withRetry } from './etcd-retry.js';
import { deleteWithRetry, putWithRetry, type TxnAttempts } from './etcd-writes.js';
import { GrpcCode, GrpcError } from './grpc/grpc-channel.js';
import { KvError } from '../types.js';

const lost = () => new GRPCUnavailableError('14 UNAVAILABLE: Connection dropped');

/** A single-key MVCC fake. `faults` says, per call, whether to fail after applying, before, or not at all. */
class FakeEtcd implements TxnAttempts {
  revision = 10;
  kv: KeyValue | null = null;
  history = new Map<number, KeyValue>();
  faults: ('after' | 'before' | 'none')[] = [];
  calls = 0;

  private fault<T>(apply: () => T): T {
    this.calls++;
    const f = this.faults.shift() ?? 'none';
    if (f === 'before') throw lost();
    const out = apply();
    if (f === 'after') throw lost();
    return out;
  }

  async put(key: string, value: string, expected: number, lease: number | undefined): Promise<TxnResult> {
    return this.fault(() => {
      if ((this.kv?.modRevision ?? 0) !== expected)
        return { succeeded: false, revision: this.revision, current: this.kv };
      this.revision++;
      this.kv = {
        key,
        value,
        createRevision: this.kv?.createRevision ?? this.revision,
        modRevision: this.revision,
        version: 1,
        lease: lease ?? 0,
      };
      this.history.set(this.revision, this.kv);
      return { succeeded: true, revision: this.revision, current: this.kv };
    });
  }

  async delete(_key: string, expected: number | undefined): Promise<TxnResult> {
    return this.fault(() => {
      const cur = this.kv;
      if (!cur || (expected !== undefined && cur.modRevision !== expected))
        return { succeeded: false, revision: this.revision, current: cur };
      this.revision++;
      this.kv = null;
      return { succeeded: true, revision: this.revision, current: cur };
    });
  }

  async get(_key: string, revision: number): Promise<KeyValue | null> {
    return this.history.get(revision) ?? null;
  }
}

const retry = { deadlineMs: 2000 };

describe('putWithRetry', () => {
  it('reports success when an attempt that failed in transit had applied (the key holds our bytes)', async () => {
    const etcd = new FakeEtcd();
    etcd.faults = ['after'];
    const res = await putWithRetry(etcd, '/k', '{"uid":"1"}', 0, undefined, retry);
    expect(res).toMatchObject({ succeeded: true, revision: 11, current: { value: '{"uid":"1"}', modRevision: 11 } });
    expect(etcd.calls).toBe(2);
  });

  it('writes on the retry when the failed attempt had not applied', async () => {
    const etcd = new FakeEtcd();
    etcd.faults = ['before', 'before'];
    expect(await putWithRetry(etcd, '/k', 'v', 0, undefined, retry)).toMatchObject({ succeeded: true, revision: 11 });
    expect(etcd.calls).toBe(3);
  });

  it('still reports a conflict when the key holds other bytes after an ambiguous attempt', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'theirs', 0, undefined);
    etcd.faults = ['before'];
    const res = await putWithRetry(etcd, '/k', 'ours', 0, undefined, retry);
    expect(res).toMatchObject({ succeeded: false, current: { value: 'theirs' } });
  });

  it('a first attempt that finds identical bytes is an ordinary conflict', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'same', 0, undefined);
    expect(await putWithRetry(etcd, '/k', 'same', 0, undefined, retry)).toMatchObject({ succeeded: false });
  });

  it('an update retried after applying reports the new ModRevision', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v1', 0, undefined);
    etcd.faults = ['after'];
    expect(await putWithRetry(etcd, '/k', 'v2', 11, undefined, retry)).toMatchObject({ succeeded: true, revision: 12 });
  });

  it('identical bytes on another lease are not our write', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v', 0, undefined);
    etcd.faults = ['before'];
    expect(await putWithRetry(etcd, '/k', 'v', 5, 7, retry)).toMatchObject({ succeeded: false, current: { lease: 0 } });
  });

  it('does not retry answers that will not change', async () => {
    const etcd = new FakeEtcd();
    etcd.put = async () => {
      etcd.calls++;
      throw new GRPCInvalidArgumentError('3 INVALID_ARGUMENT: etcdserver: request is too large');
    };
    await expect(putWithRetry(etcd, '/k', 'v', 0, undefined, retry)).rejects.toBeInstanceOf(GRPCInvalidArgumentError);
    expect(etcd.calls).toBe(1);
  });
});

describe('deleteWithRetry', () => {
  it('reports the deleted version when an attempt that failed in transit had deleted it', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v1', 0, undefined);
    etcd.faults = ['after'];
    expect(await deleteWithRetry(etcd, '/k', 11, retry)).toMatchObject({
      succeeded: true,
      current: { value: 'v1', modRevision: 11 },
    });
  });

  it('counts a key re-created after the version it meant to delete as deleted', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v1', 0, undefined);
    etcd.faults = ['after'];
    const original = etcd.delete.bind(etcd);
    let n = 0;
    etcd.delete = async (key, expected) => {
      const res = original(key, expected);
      if (n++ === 0) await res.catch(() => etcd.put('/k', 'again', 0, undefined));
      return res;
    };
    expect(await deleteWithRetry(etcd, '/k', 11, retry)).toMatchObject({ succeeded: true, current: { value: 'v1' } });
  });

  it('reports the outcome unknown, with the original error, when history no longer has the version', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v1', 0, undefined);
    etcd.history.clear();
    etcd.faults = ['after'];
    await expect(deleteWithRetry(etcd, '/k', 11, retry)).rejects.toThrow(/Connection dropped/);
  });

  it('reports the outcome unknown, with the original error, for an unconditional delete whose key is gone after an ambiguous attempt', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v1', 0, undefined);
    etcd.faults = ['after'];
    await expect(deleteWithRetry(etcd, '/k', undefined, retry)).rejects.toThrow(/Connection dropped/);
  });

  it('a delete of an absent key on the first attempt fails plainly', async () => {
    expect(await deleteWithRetry(new FakeEtcd(), '/k', 3, retry)).toMatchObject({ succeeded: false, current: null });
  });
});

describe('a write that gives up', () => {
  const unsent = () => new GrpcError(GrpcCode.UNAVAILABLE, 'cannot dial http://etcd: ECONNREFUSED', true, true);
  /** Calls after the first fail as `later` does (e.g. no member reachable). */
  const thenFailing = (etcd: FakeEtcd, first: 'after' | 'unsent', later: () => Error) => {
    const put = etcd.put.bind(etcd);
    etcd.put = async (...args) => {
      if (etcd.calls > 0) {
        etcd.calls++;
        throw later();
      }
      if (first === 'unsent') {
        etcd.calls++;
        throw unsent();
      }
      etcd.faults = ['after'];
      return put(...args);
    };
  };

  it('after an attempt that may have applied, says the outcome is unknown (a timeout), not that etcd refused', async () => {
    const etcd = new FakeEtcd();
    thenFailing(etcd, 'after', () => new BrokenCircuitError());
    const err = await putWithRetry(etcd, '/k', 'v', 0, undefined, { deadlineMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KvError);
    expect((err as KvError).message).toMatch(/timed out with its outcome unknown.*Connection dropped/);
    // It had applied: a client told "unavailable" would think nothing was written.
    expect(etcd.kv?.value).toBe('v');
  });

  it('when no attempt reached etcd, fails with the last error (nothing was written)', async () => {
    const etcd = new FakeEtcd();
    thenFailing(etcd, 'unsent', () => new BrokenCircuitError());
    await expect(putWithRetry(etcd, '/k', 'v', 0, undefined, { deadlineMs: 300 })).rejects.toBeInstanceOf(
      BrokenCircuitError,
    );
    expect(etcd.kv).toBeNull();
  });

  it('an unconditional delete retried after an attempt that never left finds the key absent: a plain answer', async () => {
    const etcd = new FakeEtcd();
    const del = etcd.delete.bind(etcd);
    etcd.delete = async (...args) => {
      if (etcd.calls++ === 0) throw unsent();
      return del(...args);
    };
    expect(await deleteWithRetry(etcd, '/k', undefined, retry)).toMatchObject({ succeeded: false, current: null });
  });

  it('a delete whose outcome cannot be told is reported as unknown', async () => {
    const etcd = new FakeEtcd();
    await etcd.put('/k', 'v1', 0, undefined);
    etcd.faults = ['after'];
    await expect(deleteWithRetry(etcd, '/k', undefined, retry)).rejects.toThrow(/outcome unknown.*Connection dropped/);
  });
});

describe('withRetry', () => {
  it('gives up with the last error once the deadline leaves no room, capping each attempt', async () => {
    const deadlines: number[] = [];
    const started = Date.now();
    await expect(
      withRetry(
        async (deadline) => {
          deadlines.push(deadline - Date.now());
          throw lost();
        },
        { deadlineMs: 600, attemptCapMs: 100 },
      ),
    ).rejects.toThrow(/Connection dropped/);
    expect(Date.now() - started).toBeLessThan(700);
    expect(deadlines.length).toBeGreaterThan(2);
    expect(Math.max(...deadlines)).toBeLessThanOrEqual(100);
  });

  it('classifies errors: member-side answers are transient but do not trip the breaker', () => {
    expect(isConnectionFailure(new GRPCUnavailableError('14 UNAVAILABLE: No connection established'))).toBe(true);
    expect(isConnectionFailure(new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: leader changed'))).toBe(false);
    expect(isTransient(new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: leader changed'))).toBe(true);
    expect(isTransient(new BrokenCircuitError())).toBe(false);
    expect(isTransient(new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: Received message larger than max'))).toBe(
      false,
    );
    expect(isTransient(new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: etcdserver: too many requests'))).toBe(
      true,
    );
  });
});
