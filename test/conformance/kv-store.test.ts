/**
 * The key-value conformance suite: one set of behaviours every backend must show (the etcd v3
 * semantics object storage relies on), run against the memory store and against etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KvError, prefixEnd, type KvEvent, type KvStore } from '../../src/storage/kv/types.js';
import { BACKENDS } from '../helpers/backends.js';

async function collect(
  kv: KvStore,
  prefix: string,
  fromRevision: number,
  count: number,
  exact = false,
): Promise<KvEvent[]> {
  const abort = new AbortController();
  const events: KvEvent[] = [];
  const timer = setTimeout(() => abort.abort(), 10_000);
  try {
    for await (const response of kv.watch({ prefix, exact, fromRevision, signal: abort.signal })) {
      expect(response.revision).toBeGreaterThanOrEqual(response.events.at(-1)?.kv.modRevision ?? 0);
      events.push(...response.events);
      if (events.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

function suite(name: string, open: () => Promise<{ kv: KvStore; close: () => Promise<void> }>) {
  describe(`key-value store: ${name}`, () => {
    let kv: KvStore;
    let close: () => Promise<void>;
    let n = 0;
    const p = () => `/conf-${name}-${Date.now()}-${++n}/`;

    beforeAll(async () => {
      ({ kv, close } = await open());
    });
    afterAll(async () => close?.());

    it('create succeeds once; the second create fails and returns the current key', async () => {
      const k = `${p()}a`;
      const first = await kv.create(k, 'v1');
      expect(first.succeeded).toBe(true);
      const second = await kv.create(k, 'v2');
      expect(second.succeeded).toBe(false);
      expect(second.current).toMatchObject({
        key: k,
        value: 'v1',
        modRevision: first.revision,
        createRevision: first.revision,
        version: 1,
      });
    });

    it('update is a compare-and-swap on ModRevision', async () => {
      const k = `${p()}b`;
      const c = await kv.create(k, 'v1');
      const stale = await kv.update(k, 'x', c.revision - 1);
      expect(stale).toMatchObject({ succeeded: false, current: { value: 'v1' } });
      const ok = await kv.update(k, 'v2', c.revision);
      expect(ok.succeeded).toBe(true);
      expect(ok.revision).toBeGreaterThan(c.revision);
      const read = await kv.range({ start: k });
      expect(read.kvs[0]).toMatchObject({
        value: 'v2',
        modRevision: ok.revision,
        createRevision: c.revision,
        version: 2,
      });
      expect((await kv.update(`${k}-missing`, 'x', 5)).current).toBeNull();
    });

    it('delete with and without a precondition returns the deleted key', async () => {
      const k = `${p()}c`;
      const c = await kv.create(k, 'v');
      expect((await kv.delete(k, c.revision + 100)).succeeded).toBe(false);
      const del = await kv.delete(k, c.revision);
      expect(del).toMatchObject({ succeeded: true, current: { value: 'v', modRevision: c.revision } });
      expect((await kv.delete(k)).succeeded).toBe(false);
      await kv.create(k, 'again');
      expect((await kv.delete(k)).current).toMatchObject({ value: 'again' });
    });

    it('range reads a prefix in key order with limit, more and count, at the latest or an old revision', async () => {
      const prefix = p();
      const revs: number[] = [];
      for (const key of ['c', 'a', 'b', 'd']) revs.push((await kv.create(prefix + key, key)).revision);
      const all = await kv.range({ start: prefix, end: prefixEnd(prefix) });
      expect(all.kvs.map((x) => x.value)).toEqual(['a', 'b', 'c', 'd']);
      expect(all).toMatchObject({ more: false, count: 4 });
      const limited = await kv.range({ start: prefix, end: prefixEnd(prefix), limit: 2 });
      expect(limited.kvs.map((x) => x.value)).toEqual(['a', 'b']);
      expect(limited).toMatchObject({ more: true, count: 4 });
      const old = await kv.range({ start: prefix, end: prefixEnd(prefix), revision: revs[1] });
      expect(old.kvs.map((x) => x.value)).toEqual(['a', 'c']);
      await kv.update(prefix + 'a', 'a2', revs[1]);
      const atOld = await kv.range({ start: prefix + 'a', revision: revs[3] });
      expect(atOld.kvs[0].value).toBe('a');
      expect(atOld.revision).toBeGreaterThan(revs[3]);
    });

    it('countOnly returns only the count; minModRevision keeps only keys changed since, leaving count whole', async () => {
      const prefix = p();
      const a = await kv.create(`${prefix}a`, '1');
      await kv.create(`${prefix}b`, '2');
      const c = await kv.update(`${prefix}a`, '3', a.revision);
      const counted = await kv.range({ start: prefix, end: prefixEnd(prefix), countOnly: true });
      expect(counted).toMatchObject({ count: 2, kvs: [] });
      const changed = await kv.range({
        start: prefix,
        end: prefixEnd(prefix),
        keysOnly: true,
        minModRevision: c.revision,
      });
      expect(changed.kvs.map((k) => k.key)).toEqual([`${prefix}a`]);
      expect(changed.count).toBe(2);
      const none = await kv.range({
        start: prefix,
        end: prefixEnd(prefix),
        keysOnly: true,
        minModRevision: c.revision + 1,
      });
      expect(none.kvs).toEqual([]);
    });

    it('revisions increase with every write and currentRevision reports the latest', async () => {
      const before = await kv.currentRevision();
      const w = await kv.create(`${p()}r`, 'x');
      expect(w.revision).toBe(before + 1);
      expect(await kv.currentRevision()).toBe(w.revision);
    });

    it('a future revision is rejected with FutureRevision', async () => {
      const cur = await kv.currentRevision();
      await expect(kv.range({ start: 'x', revision: cur + 1000 })).rejects.toMatchObject({ code: 'FutureRevision' });
    });

    it('watch replays the events after a revision in order, then live ones, with prevKv and delete revisions', async () => {
      const prefix = p();
      const c = await kv.create(prefix + 'w', '1');
      const u = await kv.update(prefix + 'w', '2', c.revision);
      await kv.create(`${prefix.slice(0, -1)}-other/x`, 'not mine');
      const pending = collect(kv, prefix, c.revision, 4);
      const d = await kv.delete(prefix + 'w');
      await kv.create(prefix + 'w', '3');
      const events = await pending;
      expect(events.map((e) => [e.type, e.kv.value])).toEqual([
        ['put', '1'],
        ['put', '2'],
        ['delete', ''],
        ['put', '3'],
      ]);
      expect(events[1].prevKv?.value).toBe('1');
      expect(events[1].kv.modRevision).toBe(u.revision);
      expect(events[2].kv.modRevision).toBe(d.revision);
      expect(events[2].prevKv).toMatchObject({ value: '2', modRevision: u.revision });
    });

    it('watch on an exact key ignores its neighbours', async () => {
      const prefix = p();
      const start = (await kv.currentRevision()) + 1;
      await kv.create(prefix + 'k', '1');
      await kv.create(prefix + 'k2', 'neighbour');
      await kv.create(prefix + 'j', 'other');
      const w = await kv.update(prefix + 'k', '2', start);
      const events = await collect(kv, prefix + 'k', start, 2, true);
      expect(events.map((e) => [e.kv.key, e.kv.value])).toEqual([
        [prefix + 'k', '1'],
        [prefix + 'k', '2'],
      ]);
      expect(events[1].kv.modRevision).toBe(w.revision);
    });

    it('aborting ends a waiting watch promptly', async () => {
      const abort = new AbortController();
      const started = Date.now();
      const iterating = (async () => {
        for await (const _ of kv.watch({
          prefix: p(),
          fromRevision: (await kv.currentRevision()) + 1,
          signal: abort.signal,
        })) {
          /* nothing arrives */
        }
      })();
      setTimeout(() => abort.abort(), 200);
      await iterating;
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('compaction makes older reads and watches fail with Compacted', async () => {
      const k = `${p()}compact`;
      const c = await kv.create(k, '1');
      const u = await kv.update(k, '2', c.revision);
      await kv.compact(u.revision);
      await expect(kv.range({ start: k, revision: c.revision })).rejects.toBeInstanceOf(KvError);
      await expect(kv.range({ start: k, revision: c.revision })).rejects.toMatchObject({ code: 'Compacted' });
      expect((await kv.range({ start: k, revision: u.revision })).kvs[0].value).toBe('2');
      await expect(collect(kv, k, c.revision, 1)).rejects.toMatchObject({ code: 'Compacted' });
    });

    it('a key on a lease disappears when the lease expires, with a delete event', async () => {
      const k = `${p()}leased`;
      const lease = await kv.grantLease(1);
      const c = await kv.create(k, 'temp', lease);
      expect((await kv.range({ start: k })).kvs[0].lease).toBe(lease);
      const events = await collect(kv, k, c.revision, 2, true);
      expect(events.map((e) => e.type)).toEqual(['put', 'delete']);
      expect((await kv.range({ start: k })).kvs).toEqual([]);
    });

    it('concurrent creates of distinct keys all succeed with distinct revisions', async () => {
      const prefix = p();
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => kv.create(`${prefix}${i}`, String(i))));
      expect(results.every((r) => r.succeeded)).toBe(true);
      expect(new Set(results.map((r) => r.revision)).size).toBe(200);
    });

    it('concurrent single-key reads each see their own key at the latest revision, with every write acknowledged before', async () => {
      const prefix = p();
      const keys = Array.from({ length: 300 }, (_, i) => `${prefix}${i}`);
      await Promise.all(keys.map((k, i) => kv.create(k, `v${i}`)));
      // Each read starts right after its key's update was acknowledged, many in one tick.
      const reads = await Promise.all(
        keys.map(async (k, i) => {
          const before = (await kv.range({ start: k })).kvs[0]!;
          const written = await kv.update(k, `w${i}`, before.modRevision);
          const after = await kv.range({ start: k, limit: 1 });
          return { k, i, written, after };
        }),
      );
      for (const { k, i, written, after } of reads) {
        expect(after.kvs).toHaveLength(1);
        expect(after.kvs[0]).toMatchObject({ key: k, value: `w${i}`, modRevision: written.revision });
        expect(after.revision).toBeGreaterThanOrEqual(written.revision);
      }
      const missing = await Promise.all(keys.slice(0, 50).map((k) => kv.range({ start: `${k}-absent` })));
      expect(missing.every((r) => r.kvs.length === 0 && r.revision > 0)).toBe(true);
    });

    if (name === 'etcd') {
      it("a write over etcd's request limit or the client's send limit fails with TooLarge and stores nothing", async () => {
        const k = `${p()}big`;
        await expect(kv.create(k, 'x'.repeat(1_700_000))).rejects.toMatchObject({
          code: 'TooLarge',
          message: /request is too large/,
        });
        await expect(kv.create(k, 'x'.repeat(2_500_000))).rejects.toMatchObject({
          code: 'TooLarge',
          message: /larger than max/,
        });
        expect((await kv.range({ start: k })).kvs).toEqual([]);
      });
    }

    it('concurrent compare-and-swaps on one key: exactly one wins per revision', async () => {
      const k = `${p()}cas`;
      const c = await kv.create(k, '0');
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => kv.update(k, String(i + 1), c.revision)));
      expect(results.filter((r) => r.succeeded)).toHaveLength(1);
    });
  });
}

for (const [name, open] of BACKENDS) suite(name, open);
