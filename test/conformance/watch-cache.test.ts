/**
 * The watch cache (storage/cacher) on every key-value backend: one storage watch however many
 * clients watch, 410 for a resourceVersion older than its window, termination of a watcher that
 * falls behind (others unaffected), progress for bookmarks, consistent lists that see writes
 * made through another replica, index reads, and what happens when its storage watch fails.
 */
import { setMaxListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiObject } from '../../src/api/object.js';
import { Cacher, type CacherOptions } from '../../src/storage/cacher/cacher.js';
import type { CacherObserver } from '../../src/storage/cacher/observer.js';
import { KvError, type KvStore, type WatchOptions } from '../../src/storage/kv/types.js';
import type { WatchEvent } from '../../src/storage/object-watch.js';
import { ObjectStore } from '../../src/storage/object-store.js';
import { BACKENDS } from '../helpers/backends.js';
import { cacherReady } from '../helpers/cacher.js';

const cm = (name: string, labels: Record<string, string> = {}, node = ''): ApiObject => ({
  metadata: { name, namespace: 'ns', labels },
  data: { v: name },
  ...(node ? { spec: { nodeName: node } } : {}),
});

/** A KvStore that counts watches and can break every open watch on demand. */
function instrumented(kv: KvStore): { kv: KvStore; watches: () => number; breakWatches: () => void } {
  let opened = 0;
  const breakers = new Set<() => void>();
  const wrapped = delegating(kv, { watch: (opts: WatchOptions) => watch(opts) });
  const watch = (opts: WatchOptions) => ({
    async *[Symbol.asyncIterator]() {
      opened++;
      const abort = new AbortController();
      let broken = false;
      const breaker = () => {
        broken = true;
        abort.abort();
      };
      breakers.add(breaker);
      opts.signal.addEventListener('abort', () => abort.abort(), { once: true });
      try {
        yield* kv.watch({ ...opts, signal: abort.signal });
      } finally {
        breakers.delete(breaker);
      }
      if (broken) throw new KvError('Unavailable', 'watch broken by the test');
    },
  });
  return { kv: wrapped, watches: () => opened, breakWatches: () => [...breakers].forEach((b) => b()) };
}

/** A KvStore calling `kv` for everything `overrides` does not replace (`kv`'s own state stays its own). */
function delegating(kv: KvStore, overrides: Partial<KvStore>): KvStore {
  return {
    backend: kv.backend,
    range: (o) => kv.range(o),
    create: (k, v, l) => kv.create(k, v, l),
    update: (k, v, r, l) => kv.update(k, v, r, l),
    delete: (k, r) => kv.delete(k, r),
    currentRevision: () => kv.currentRevision(),
    watchProgress: () => kv.watchProgress(),
    compact: (r) => kv.compact(r),
    grantLease: (t) => kv.grantLease(t),
    close: () => kv.close(),
    watch: (opts: WatchOptions) => kv.watch(opts),
    ...overrides,
  };
}

/** A KvStore recording the key range of every read, and counting current-revision reads. */
function countingReads(kv: KvStore): {
  kv: KvStore;
  reads: { start: string; end?: string }[];
  revisions: () => number;
} {
  const reads: { start: string; end?: string }[] = [];
  let revisions = 0;
  const range: KvStore['range'] = (o) => {
    reads.push({ start: o.start, end: o.end });
    return kv.range(o);
  };
  const currentRevision = () => {
    revisions++;
    return kv.currentRevision();
  };
  return { kv: delegating(kv, { range, currentRevision }), reads, revisions: () => revisions };
}

/**
 * A KvStore whose watches can be held (responses kept back until released, as a watch that
 * fell behind) and which can stop reporting progress (as etcd before 3.4.31).
 */
function holdingWatches(kv: KvStore) {
  let held = false;
  let progress = true;
  const waiting = new Set<() => void>();
  const wrapped = delegating(kv, {
    watchProgress: async () => (progress ? kv.watchProgress() : 'none'),
    watch: (opts: WatchOptions) => ({
      async *[Symbol.asyncIterator]() {
        for await (const response of kv.watch(opts)) {
          while (held) await new Promise<void>((resolve) => waiting.add(resolve));
          yield response;
        }
      },
    }),
  });
  return {
    kv: wrapped,
    hold: () => (held = true),
    release: () => {
      held = false;
      for (const wake of waiting) wake();
      waiting.clear();
    },
    noProgress: () => (progress = false),
  };
}

/** Collect events of `iterable` until `until` holds or it ends. */
async function collect(
  iterable: AsyncIterable<WatchEvent>,
  until: (events: WatchEvent[]) => boolean,
): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  for await (const ev of iterable) {
    events.push(ev);
    if (until(events)) break;
  }
  return events;
}

for (const [backend, open] of BACKENDS) {
  describe(`watch cache on ${backend}`, () => {
    let close: () => Promise<void>;
    let kv: KvStore;
    let n = 0;
    const started: Cacher[] = [];
    const terminated: string[] = [];
    const consistentReads: boolean[] = [];
    const observer: CacherObserver = {
      eventReceived: () => undefined,
      eventsDispatched: () => undefined,
      resourceVersion: () => undefined,
      initialized: () => undefined,
      consistentRead: (_r, fromCache) => consistentReads.push(fromCache),
      watcherTerminated: (r) => terminated.push(r),
    };

    beforeAll(async () => {
      ({ kv, close } = await open());
    });
    afterAll(async () => {
      await Promise.all(started.map((c) => c.stop()));
      await close?.();
    });

    /** A fresh root with a direct store and a started cache in front of it. */
    async function fresh(opts: Partial<CacherOptions> = {}, source: KvStore = kv) {
      const root = `/wc-${backend}-${Date.now()}-${++n}`;
      const direct = new ObjectStore(source, root);
      const cacher = new Cacher(direct, { prefix: 'cms/', resource: 'configmaps', observer, ...opts });
      cacher.start();
      started.push(cacher);
      await cacherReady(cacher);
      return { direct, cacher, other: new ObjectStore(kv, root) };
    }

    it('serves many watchers from one storage watch, each change to each watcher in order', async () => {
      const counted = instrumented(kv);
      const { cacher, direct } = await fresh({}, counted.kv);
      expect(counted.watches()).toBe(1);
      const start = await direct.list('cms/');
      const abort = new AbortController();
      setMaxListeners(100, abort.signal);
      const watchers = Array.from({ length: 50 }, () =>
        collect(
          cacher.watch('cms/', {
            recursive: true,
            resourceVersion: Number(start.resourceVersion),
            signal: abort.signal,
          }),
          (e) => e.length === 3,
        ),
      );
      await direct.create('cms/ns/a', cm('a'));
      await direct.guaranteedUpdate('cms/ns/a', (cur) => ({ ...cur!, data: { v: 'changed' } }));
      await direct.delete('cms/ns/a');
      const results = await Promise.all(watchers);
      abort.abort();
      for (const events of results) expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      // The same event object reaches every watcher (it is encoded once).
      expect(new Set(results.map((events) => events[1])).size).toBe(1);
      expect(counted.watches()).toBe(1);
    });

    it('answers 410 Expired ("too old resource version") for a resourceVersion older than its window', async () => {
      const { cacher, direct } = await fresh({ lowerCapacity: 2, freshMs: -1 });
      const first = await direct.create('cms/ns/w0', cm('w0'));
      for (let i = 1; i < 6; i++) await direct.create(`cms/ns/w${i}`, cm(`w${i}`));
      await cacher.list('cms/', {}); // the cache has caught up
      const abort = new AbortController();
      const watch = cacher.watch('cms/', {
        recursive: true,
        resourceVersion: Number(first.metadata.resourceVersion),
        signal: abort.signal,
      });
      await expect(collect(watch, () => true)).rejects.toMatchObject({
        code: 'Expired',
        message: expect.stringMatching(/^too old resource version: \d+ \(\d+\)$/),
      });
    });

    it('terminates a watcher that falls behind without holding back the others', async () => {
      const { cacher, direct } = await fresh({ watcherCapacity: 1000, watcherSoftCapacity: 5, watcherGraceMs: 300 });
      const start = await direct.list('cms/');
      const slowAbort = new AbortController();
      const slowSource = cacher.watch('cms/', {
        recursive: true,
        resourceVersion: Number(start.resourceVersion),
        signal: slowAbort.signal,
      });
      const slow = slowSource[Symbol.asyncIterator]();
      const firstSlow = slow.next(); // consumes one event, then stalls
      const fast = collect(
        cacher.watch('cms/', {
          recursive: true,
          resourceVersion: Number(start.resourceVersion),
          signal: new AbortController().signal,
        }),
        (e) => e.length === 20,
      );
      const before = terminated.length;
      for (let i = 0; i < 20; i++) {
        await direct.create(`cms/ns/s${i}`, cm(`s${i}`));
        await new Promise((r) => setTimeout(r, 25)); // 500 ms in all: the slow one stays behind longer than its grace
      }
      expect((await fast).map((e) => e.object.metadata.name)).toEqual(Array.from({ length: 20 }, (_, i) => `s${i}`));
      await firstSlow;
      const rest: string[] = [];
      for (let r = await slow.next(); !r.done; r = await slow.next()) rest.push(r.value.object.metadata.name!);
      expect(rest.length).toBeLessThan(19); // the stream ended early instead of buffering every event
      expect(terminated.length).toBe(before + 1);
      slowAbort.abort();
    });

    it('reports progress past changes a watcher does not match (bookmarks)', async () => {
      const { cacher, direct } = await fresh();
      const start = await direct.list('cms/');
      const abort = new AbortController();
      let progress = 0;
      const done = collect(
        cacher.watch('cms/', {
          recursive: true,
          resourceVersion: Number(start.resourceVersion),
          predicate: (o) => o.metadata.labels?.app === 'web',
          signal: abort.signal,
          onProgress: (rev) => (progress = rev),
        }),
        () => false,
      );
      const last = await direct.create('cms/ns/other', cm('other', { app: 'db' }));
      for (let i = 0; i < 60 && progress < Number(last.metadata.resourceVersion); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(progress).toBeGreaterThanOrEqual(Number(last.metadata.resourceVersion));
      abort.abort();
      await done;
    });

    it('a consistent list sees writes made through another replica at once; index reads pick only their value', async () => {
      const { cacher, other } = await fresh({
        indexers: { 'spec.nodeName': (o) => String((o.spec as { nodeName?: string } | undefined)?.nodeName ?? '') },
      });
      for (let i = 0; i < 10; i++) {
        const created = await other.create(`cms/ns/r${i}`, cm(`r${i}`, {}, i % 2 ? 'node-a' : 'node-b'));
        const list = await cacher.list('cms/ns/');
        expect(list.items).toHaveLength(i + 1);
        expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));
      }
      await other.delete('cms/ns/r0');
      expect((await cacher.list('cms/')).items).toHaveLength(9);
      const onA = await cacher.list('cms/', { resourceVersion: '0', indexValues: { 'spec.nodeName': 'node-a' } });
      expect(onA.items.map((o) => o.metadata.name)).toEqual(['r1', 'r3', 'r5', 'r7', 'r9']);
    });

    it('a consistent list is answered from the cache when only other resources changed since its last event', async () => {
      const { cacher, direct } = await fresh();
      await direct.create('cms/ns/q', cm('q'));
      await (
        await cacher.list('cms/')
      ).items;
      for (let i = 0; i < 3; i++) await direct.create(`elsewhere/ns/e${i}`, cm(`e${i}`)); // storage's revision moves on
      const before = consistentReads.length;
      const started = Date.now();
      const list = await cacher.list('cms/');
      expect(Date.now() - started).toBeLessThan(1000); // no 3 s wait for events that will not come
      expect(list.items.map((o) => o.metadata.name)).toEqual(['q']);
      expect(Number(list.resourceVersion)).toBe(await kv.currentRevision());
      // etcd before 3.4.31 (this machine's 3.4.23) has no safe progress: the list's range is proven unchanged.
      expect(consistentReads.slice(before)).toEqual([true]);
    });

    it('a consistent list costs one one-key read of storage once the cache is current, however big the resource', async () => {
      const counted = countingReads(kv);
      const { cacher, direct } = await fresh({}, counted.kv);
      for (let i = 0; i < 20; i++) await direct.create(`cms/other${i % 4}/c${i}`, cm(`c${i}`));
      await direct.create('cms/mine/m', cm('m'));
      await cacher.list('cms/mine/'); // the cache catches up with the last write
      counted.reads.length = 0;
      const before = counted.revisions();
      const list = await cacher.list('cms/mine/');
      expect(list.items.map((o) => o.metadata.name)).toEqual(['m']);
      // One current-revision read (etcd: one key), no range over the resource's keys.
      expect(counted.revisions() - before).toBe(1);
      expect(counted.reads).toEqual([]);
    });

    it('a consistent list sees every write acknowledged before it began: cache behind, no progress, compaction', async () => {
      const held = holdingWatches(kv);
      const { cacher, direct } = await fresh({}, held.kv);
      await direct.create('cms/ns/a', cm('a'));
      await expect.poll(async () => (await cacher.list('cms/', { resourceVersion: '0' })).items.length).toBe(1);
      // The cache's watch is held: the cache stays behind the next write.
      held.hold();
      const b = await direct.create('cms/ns/b', cm('b'));
      let list = await cacher.list('cms/');
      expect(list.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
      expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(b.metadata.resourceVersion));
      held.release();
      // Progress unavailable (older etcd): the range changed, so storage answers, seeing the write;
      // then, nothing changed, the cache answers again for the unchanged range.
      held.noProgress();
      const c = await direct.create('cms/ns/c', cm('c'));
      list = await cacher.list('cms/');
      expect(list.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
      expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(c.metadata.resourceVersion));
      await direct.create('other/ns/x', cm('x')); // storage moves on elsewhere
      const reads = consistentReads.length;
      list = await cacher.list('cms/ns/');
      expect(list.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
      expect(Number(list.resourceVersion)).toBe(await kv.currentRevision());
      expect(consistentReads.slice(reads)).toEqual([true]);
      // A compaction past the cache's revision while it is held: it lists again; reads still see everything.
      held.hold();
      const d = await direct.create('cms/ns/d', cm('d'));
      await kv.compact(await kv.currentRevision());
      held.release();
      list = await cacher.list('cms/');
      expect(list.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c', 'd']);
      expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(d.metadata.resourceVersion));
    });

    it('when its storage watch fails it closes its watchers, reads storage, then lists again and serves', async () => {
      const counted = instrumented(kv);
      const { cacher, direct } = await fresh({}, counted.kv);
      await direct.create('cms/ns/x', cm('x'));
      const abort = new AbortController();
      const events: string[] = [];
      const watching = (async () => {
        for await (const ev of cacher.watch('cms/', { recursive: true, resourceVersion: 0, signal: abort.signal }))
          events.push(ev.type);
      })();
      await new Promise((r) => setTimeout(r, 100));
      counted.breakWatches();
      // The watch ends with storage's error (an ERROR event for HTTP clients, who watch again).
      await expect(watching).rejects.toMatchObject({ code: 'Unreachable' });
      expect(events).toEqual(['ADDED']);
      await direct.create('cms/ns/y', cm('y'));
      expect((await cacher.list('cms/', { resourceVersion: '0' })).items.map((o) => o.metadata.name)).toContain('y');
      await cacherReady(cacher);
      expect(counted.watches()).toBe(2);
      expect((await cacher.list('cms/', { resourceVersion: '0' })).items.map((o) => o.metadata.name)).toEqual([
        'x',
        'y',
      ]);
    });
  });
}
