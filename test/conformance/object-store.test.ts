/**
 * The object-storage suite (create, get, chunked list at one snapshot, guaranteed update,
 * delete with preconditions, watch with selector transitions, read freshness), written against
 * the ObjectStorage contract and run on every key-value backend (memory, embedded, etcd), each
 * directly and through a watch cache (the Cacher in front of the same storage).
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiObject } from '../../src/api/object.js';
import type { KvStore } from '../../src/storage/kv/types.js';
import { ObjectStore } from '../../src/storage/object-store.js';
import { Cacher } from '../../src/storage/cacher/cacher.js';
import { cacherReady } from '../helpers/cacher.js';
import type { ObjectStorage } from '../../src/storage/types.js';
import { StorageError } from '../../src/storage/storage-error.js';
import { BACKENDS } from '../helpers/backends.js';

const obj = (name: string, labels: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', labels },
  data: { v: name },
});

function suite(name: string, open: () => Promise<{ kv: KvStore; close: () => Promise<void> }>, cached: boolean) {
  describe(`object storage on ${name}${cached ? ' through a watch cache' : ''}`, () => {
    let kv: KvStore;
    let close: () => Promise<void>;
    let store: ObjectStorage;
    let n = 0;
    const prefix = () => `t${++n}/ns/`;

    let cacher: Cacher | undefined;

    beforeAll(async () => {
      ({ kv, close } = await open());
      const direct = new ObjectStore(kv, `/registry-${name}-${Date.now()}`);
      if (cached) {
        // One cache over the whole test root: every test's prefix is served through it.
        cacher = new Cacher(direct, { prefix: '', resource: 'test' });
        cacher.start();
        await cacherReady(cacher);
      }
      store = cacher ?? direct;
    });
    afterAll(async () => {
      await cacher?.stop();
      await close?.();
    });

    it('creates once, reads back with resourceVersion = ModRevision, stores no resourceVersion', async () => {
      const p = prefix();
      const created = await store.create(`${p}a`, {
        ...obj('a'),
        metadata: { ...obj('a').metadata, resourceVersion: '99', selfLink: '/x' },
      });
      const got = await store.get(`${p}a`);
      expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      const raw = await kv.range({ start: store.fullKey(`${p}a`) });
      expect(JSON.parse(raw.kvs[0].value).metadata).not.toHaveProperty('resourceVersion');
      expect(JSON.parse(raw.kvs[0].value).metadata).not.toHaveProperty('selfLink');
      expect(String(raw.kvs[0].modRevision)).toBe(created.metadata.resourceVersion);
      await expect(store.create(`${p}a`, obj('a'))).rejects.toMatchObject({ code: 'KeyExists' });
      await expect(store.get(`${p}missing`)).rejects.toMatchObject({ code: 'KeyNotFound' });
    });

    it('lists in chunks that together form the snapshot of the first chunk, despite concurrent writes', async () => {
      const p = prefix();
      for (let i = 0; i < 25; i++) await store.create(`${p}${String(i).padStart(2, '0')}`, obj(`o${i}`));
      const first = await store.list(p, { limit: 10 });
      expect(first.items).toHaveLength(10);
      expect(first.remainingItemCount).toBe(15);
      await store.create(`${p}zz-new`, obj('new'));
      await store.delete(`${p}20`);
      await store.guaranteedUpdate(`${p}15`, (cur) => ({ ...cur!, data: { v: 'changed' } }));
      const seen = [...first.items];
      let token = first.continue;
      while (token) {
        const chunk = await store.list(p, { limit: 10, continueToken: token });
        expect(chunk.resourceVersion).toBe(first.resourceVersion);
        seen.push(...chunk.items);
        token = chunk.continue;
      }
      expect(seen.map((o) => o.metadata.name)).toEqual(Array.from({ length: 25 }, (_, i) => `o${i}`));
      expect(seen.find((o) => o.metadata.name === 'o15')!.data).toEqual({ v: 'o15' });
    });

    it('keeps fetching until limit matching items when a predicate filters', async () => {
      const p = prefix();
      for (let i = 0; i < 20; i++)
        await store.create(`${p}${String(i).padStart(2, '0')}`, obj(`o${i}`, { even: String(i % 2 === 0) }));
      const res = await store.list(p, {
        limit: 4,
        predicate: (o) => o.metadata.labels?.even === 'true',
        hasSelector: true,
      });
      expect(res.items.map((o) => o.metadata.name)).toEqual(['o0', 'o2', 'o4', 'o6']);
      expect(res.continue).toBeTruthy();
      expect(res.remainingItemCount).toBeUndefined();
    });

    it('rejects malformed continue tokens and resourceVersions with continue', async () => {
      await expect(store.list('x/', { limit: 1, continueToken: 'not-a-token' })).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
      const token = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 5, start: 'a' })).toString('base64url');
      await expect(store.list('x/', { limit: 1, continueToken: token, resourceVersion: '7' })).rejects.toThrow(
        'specifying resource version is not allowed when using continue',
      );
    });

    it('guaranteedUpdate retries on conflict and skips no-op writes', async () => {
      const p = prefix();
      const created = await store.create(`${p}c`, { ...obj('c'), data: { n: '0' } });
      await Promise.all(
        Array.from({ length: 10 }, () =>
          store.guaranteedUpdate(`${p}c`, (cur) => ({
            ...cur!,
            data: { n: String(Number((cur!.data as { n: string }).n) + 1) },
          })),
        ),
      );
      const after = await store.get(`${p}c`);
      expect((after.data as { n: string }).n).toBe('10');
      const same = await store.guaranteedUpdate(`${p}c`, (cur) => cur!);
      expect(same.metadata.resourceVersion).toBe(after.metadata.resourceVersion);
      expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    });

    it('deletes with uid and resourceVersion preconditions', async () => {
      const p = prefix();
      const created = await store.create(`${p}d`, { ...obj('d'), metadata: { ...obj('d').metadata, uid: 'u1' } });
      await expect(store.delete(`${p}d`, { preconditions: { uid: 'other' } })).rejects.toThrow(
        'Precondition failed: UID in precondition: other, UID in object meta: u1',
      );
      await expect(store.delete(`${p}d`, { preconditions: { resourceVersion: '1' } })).rejects.toBeInstanceOf(
        StorageError,
      );
      const deleted = await store.delete(`${p}d`, {
        preconditions: { uid: 'u1', resourceVersion: created.metadata.resourceVersion },
      });
      expect(deleted.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      await expect(store.delete(`${p}d`)).rejects.toMatchObject({ code: 'KeyNotFound' });
    });

    it('watches from a revision with selector transitions and the delete revision on DELETED', async () => {
      const p = prefix();
      const start = await store.list(p);
      const abort = new AbortController();
      const events: [string, string, string][] = [];
      const done = (async () => {
        for await (const ev of store.watch(p, {
          recursive: true,
          resourceVersion: Number(start.resourceVersion),
          predicate: (o) => o.metadata.labels?.app === 'web',
          signal: abort.signal,
        })) {
          events.push([ev.type, ev.object.metadata.name!, ev.object.metadata.resourceVersion!]);
          if (events.length === 4) abort.abort();
        }
      })();
      await store.create(`${p}other`, obj('other', { app: 'db' }));
      const a = await store.create(`${p}w`, obj('w', { app: 'web' }));
      const b = await store.guaranteedUpdate(`${p}w`, (cur) => ({ ...cur!, data: { v: 'x' } }));
      const c = await store.guaranteedUpdate(`${p}w`, (cur) => ({
        ...cur!,
        metadata: { ...cur!.metadata, labels: { app: 'db' } },
      }));
      await store.guaranteedUpdate(`${p}w`, (cur) => ({
        ...cur!,
        metadata: { ...cur!.metadata, labels: { app: 'web' } },
      }));
      await done;
      expect(events.slice(0, 3)).toEqual([
        ['ADDED', 'w', a.metadata.resourceVersion],
        ['MODIFIED', 'w', b.metadata.resourceVersion],
        ['DELETED', 'w', c.metadata.resourceVersion],
      ]);
      expect(events[3][0]).toBe('ADDED');
    });

    it('a watch without resourceVersion first sends ADDED for existing objects', async () => {
      const p = prefix();
      await store.create(`${p}e1`, obj('e1'));
      await store.create(`${p}e2`, obj('e2'));
      const abort = new AbortController();
      const names: string[] = [];
      for await (const ev of store.watch(p, {
        recursive: true,
        resourceVersion: 0,
        consistent: true,
        signal: abort.signal,
      })) {
        names.push(`${ev.type}:${ev.object.metadata.name}`);
        if (names.length === 2) abort.abort();
      }
      expect(names).toEqual(['ADDED:e1', 'ADDED:e2']);
    });

    it("return() ends a watch waiting for a change at once; a caller's signal keeps no listener once its watches end", async () => {
      const p = prefix();
      await store.create(`${p}r`, obj('r'));
      const it = store.watch(p, { recursive: true, resourceVersion: 0 })[Symbol.asyncIterator]();
      expect((await it.next()).value).toMatchObject({ type: 'ADDED' });
      const pending = it.next();
      await it.return!();
      expect(await pending).toMatchObject({ done: true });
      // A controller's signal is shared by its watches over the process's life.
      const shared = new AbortController();
      for (let i = 0; i < 3; i++) {
        const source = store.watch(p, { recursive: true, resourceVersion: 0, signal: shared.signal });
        const w = source[Symbol.asyncIterator]();
        await w.next();
        const waiting = w.next();
        await w.return!();
        expect(await waiting).toMatchObject({ done: true });
      }
      expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    });

    it('a read without resourceVersion sees every acknowledged write; one at N is not older than N', async () => {
      const p = prefix();
      for (let round = 0; round < 5; round++) {
        const created = await store.create(`${p}f${round}`, obj(`f${round}`));
        const list = await store.list(p);
        expect(list.items.map((o) => o.metadata.name)).toContain(`f${round}`);
        expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));
        const notOlder = await store.list(p, {
          resourceVersion: created.metadata.resourceVersion ?? undefined,
          resourceVersionMatch: 'NotOlderThan',
        });
        expect(notOlder.items).toHaveLength(round + 1);
        const got = await store.get(`${p}f${round}`, {
          resourceVersion: created.metadata.resourceVersion ?? undefined,
        });
        expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      }
      const any = await store.list(p, { resourceVersion: '0', limit: 2 });
      expect(any.items.length).toBeLessThanOrEqual(2);
    });
  });
}

for (const [name, open] of BACKENDS) {
  suite(name, open, false);
  suite(name, open, true);
}
