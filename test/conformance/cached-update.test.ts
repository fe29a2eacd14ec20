/**
 * A guaranteed update through a watch cache starts from the cached object, as upstream's
 * Cacher.GuaranteedUpdate passes it down as cachedExistingObject: with a current cache storage
 * is not read before the write; with a cache that is behind, the attempt on its stale object
 * fails (compare-and-swap, precondition, update function) or finds nothing to change, and
 * storage is read then, so the outcome is the one a read of storage would have given. Run on
 * every backend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiObject } from '../../src/api/object.js';
import type { KvStore, RangeOptions } from '../../src/storage/kv/types.js';
import { ObjectStore } from '../../src/storage/object-store.js';
import { Cacher } from '../../src/storage/cacher/cacher.js';
import { WatchCache } from '../../src/storage/cacher/watch-cache.js';
import { cacherReady } from '../helpers/cacher.js';
import { BACKENDS } from '../helpers/backends.js';

const obj = (name: string, v: string): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  data: { v },
});

const valueOf = (o: ApiObject | null) => (o?.data as { v: string }).v;

for (const [name, open] of BACKENDS) {
  describe(`guaranteed update through a watch cache on ${name}`, () => {
    let kv: KvStore;
    let close: () => Promise<void>;
    let direct: ObjectStore;
    let cacher: Cacher;
    /** Ranges read through the counting store, by key. */
    const reads: string[] = [];
    let n = 0;
    const key = () => `t${++n}/ns/cm`;

    beforeAll(async () => {
      ({ kv, close } = await open());
      // Storage reads made by updates are counted (the cache's own list is made before any test).
      const counting: KvStore = Object.create(kv, {
        range: { value: (o: RangeOptions) => (reads.push(o.start), kv.range(o)) },
      });
      direct = new ObjectStore(counting, `/registry-cu-${name}-${Date.now()}`);
      cacher = new Cacher(direct, { prefix: '', resource: 'test' });
      cacher.start();
      await cacherReady(cacher);
    });
    afterAll(async () => {
      await cacher?.stop();
      await close?.();
    });

    /** Wait until the cache holds `k` at `rv`. */
    async function cached(k: string, rv: string | null | undefined): Promise<void> {
      for (let i = 0; i < 200 && cacher.cache.get(k)?.metadata.resourceVersion !== rv; i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(cacher.cache.get(k)?.metadata.resourceVersion).toBe(rv);
    }

    /** Keep the cache where it is until the returned function is called (its watch "delivers late"). */
    function hold(): () => void {
      const queued: Parameters<WatchCache['apply']>[] = [];
      cacher.cache.apply = (...args) => (queued.push(args), null);
      return () => {
        cacher.cache.apply = WatchCache.prototype.apply;
        for (const args of queued.splice(0)) cacher.cache.apply(...args);
      };
    }

    it('reads no storage before the write when the cache is current', async () => {
      const k = key();
      const created = await cacher.create(k, obj('a', '1'));
      await cached(k, created.metadata.resourceVersion);
      reads.length = 0;
      const updated = await cacher.guaranteedUpdate(k, (cur) => ({ ...cur!, data: { v: '2' } }));
      expect(reads).toEqual([]);
      expect(valueOf(updated)).toBe('2');
      expect(valueOf(await cacher.get(k))).toBe('2');
      expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    });

    it('behind, updates what storage holds: the stale attempt loses its compare-and-swap', async () => {
      const k = key();
      const created = await cacher.create(k, obj('b', '0'));
      await cached(k, created.metadata.resourceVersion);
      const release = hold();
      try {
        await direct.guaranteedUpdate(k, (cur) => ({ ...cur!, data: { v: '1' } }));
        const seen: string[] = [];
        const updated = await cacher.guaranteedUpdate(k, (cur) => {
          seen.push(valueOf(cur));
          return { ...cur!, data: { v: String(Number(valueOf(cur)) + 1) } };
        });
        expect(seen).toEqual(['0', '1']);
        expect(valueOf(updated)).toBe('2');
        expect(valueOf(await direct.get(k))).toBe('2');
      } finally {
        release();
      }
    });

    it('behind, a result equal to the cached object is checked against storage before it counts as no change', async () => {
      const k = key();
      const created = await cacher.create(k, obj('c', 'old'));
      await cached(k, created.metadata.resourceVersion);
      const release = hold();
      try {
        const moved = await direct.guaranteedUpdate(k, (cur) => ({ ...cur!, data: { v: 'new' } }));
        // Unchanged: what storage holds now is answered, at storage's resourceVersion.
        const same = await cacher.guaranteedUpdate(k, (cur) => cur!);
        expect(valueOf(same)).toBe('new');
        expect(same.metadata.resourceVersion).toBe(moved.metadata.resourceVersion);
      } finally {
        release();
      }
    });

    it('behind, a failing precondition or update is tried again on storage; current, its error stands', async () => {
      const k = key();
      const created = await cacher.create(k, obj('d', 'old'));
      await cached(k, created.metadata.resourceVersion);
      const release = hold();
      let moved: ApiObject;
      try {
        moved = await direct.guaranteedUpdate(k, (cur) => ({ ...cur!, data: { v: 'new' } }));
        const rv = moved.metadata.resourceVersion!;
        const withPrecondition = await cacher.guaranteedUpdate(k, (cur) => ({ ...cur!, data: { v: 'p' } }), {
          preconditions: { resourceVersion: rv },
        });
        expect(valueOf(withPrecondition)).toBe('p');
        const seen: string[] = [];
        const checked = await cacher.guaranteedUpdate(k, (cur) => {
          seen.push(valueOf(cur));
          if (valueOf(cur) !== 'p') throw new Error('stale');
          return { ...cur!, data: { v: 'q' } };
        });
        expect(seen).toEqual(['old', 'p']);
        expect(valueOf(checked)).toBe('q');
      } finally {
        release();
      }
      const latest = await direct.get(k);
      await cached(k, latest.metadata.resourceVersion);
      let calls = 0;
      await expect(
        cacher.guaranteedUpdate(k, () => {
          calls++;
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(calls).toBe(1);
      await expect(cacher.guaranteedUpdate(k, (cur) => cur!, { preconditions: { uid: 'another' } })).rejects.toThrow(
        'Precondition failed: UID in precondition: another, UID in object meta: uid-d',
      );
    });

    it("keeps a leased key's lease", async () => {
      const k = key();
      const created = await cacher.create(k, obj('e', '1'), { leaseTtlSeconds: 600 });
      await cached(k, created.metadata.resourceVersion);
      const leaseOf = async () => (await kv.range({ start: direct.fullKey(k) })).kvs[0]!.lease;
      const lease = await leaseOf();
      expect(lease).not.toBe(0);
      await cacher.guaranteedUpdate(k, (cur) => ({ ...cur!, data: { v: '2' } }));
      expect(await leaseOf()).toBe(lease);
    });
  });
}
