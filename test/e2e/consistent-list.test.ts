/**
 * A consistent list (no resourceVersion) sees every write acknowledged before it was sent
 * (issue 31; upstream KEP-2340's promise), on etcd 3.4.23, which has no safe progress requests
 * (etcd #15220: the server's freshness check has no progress to wait for). Replica A is
 * in-process so that its ConfigMap watch cache can be held behind storage (see
 * helpers/held-cache.ts); writes go through replica B (a server process) and straight to etcd.
 *  - With A's cache held: namespaced, all-namespaces and label-selected lists hold exactly the
 *    acknowledged state, at a resourceVersion not older than any write, in namespaces with
 *    creates, an update and a delete, with as many objects as before (one updated, one
 *    replaced), with one object fewer only, and untouched; again after etcd is compacted at
 *    its current revision; again once released.
 *  - A property over 12-30 s (at least 100 lists) of concurrent creates and deletes (through
 *    B and straight to etcd), A's cache held for 250 ms then free for 250 ms, and etcd
 *    compacted at its current revision after each: every list holds every object whose create
 *    was acknowledged before it was sent (and whose delete had not begun before it was
 *    answered), none whose delete was acknowledged before it was sent, nothing outside its
 *    namespace or selector, at a resourceVersion not older than any acknowledged write.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openKvStore } from '../../src/storage/kv/open.js';
import { KvError, type KvStore } from '../../src/storage/kv/types.js';
import { clientFor, type Client } from '../helpers/api-client.js';
import { startEtcd, type StartedEtcd } from '../helpers/etcd.js';
import { cacherOf, holdable, type HeldCache } from '../helpers/held-cache.js';
import { startTestServer, type TestServer } from '../helpers/in-process.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const cms = (ns?: string, query = '') => `/api/v1/${ns ? `namespaces/${ns}/` : ''}configmaps${query}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let etcd: StartedEtcd;
let kv: KvStore;
let a: TestServer;
let b: ServerProcess;
let viaB: Client;
let cache: HeldCache;
beforeAll(async () => {
  etcd = await startEtcd();
  kv = await openKvStore([etcd.endpoint]);
  [a, b] = await Promise.all([startTestServer({ etcdServers: [etcd.endpoint] }), startServerProcess([etcd.endpoint])]);
  viaB = clientFor(b);
  cache = holdable(cacherOf(a.running, 'configmaps').cache);
});
afterAll(async () => {
  cache?.release();
  await viaB?.close();
  await b?.stop();
  await a?.stop();
  await kv?.close();
  await etcd?.stop();
});

/** Create a ConfigMap straight in etcd, as another replica's storage would; its revision. */
async function createInEtcd(ns: string, name: string, labels: Record<string, string>): Promise<number> {
  const obj = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name, namespace: ns, labels, uid: crypto.randomUUID(), creationTimestamp: new Date().toISOString() },
    data: { by: 'etcd' },
  };
  const res = await kv.create(`/registry/configmaps/${ns}/${name}`, JSON.stringify(obj));
  expect(res.succeeded).toBe(true);
  return res.revision;
}

/** A's list at `path`: each item's data by `namespace/name`, and the list's resourceVersion; throws on a non-200. */
async function listOnA(path: string): Promise<{ rv: number; data: Map<string, unknown> }> {
  const res = await a.api('GET', path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  const items = res.body.items as { metadata: { name: string; namespace: string }; data?: unknown }[];
  return {
    rv: Number(res.body.metadata.resourceVersion),
    data: new Map(items.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o.data])),
  };
}

/** A's metric value for the ConfigMap cache: its resourceVersion, or its consistent reads (by fallback). */
async function metricOnA(name: string, labels = ''): Promise<number> {
  const text: string = (await a.api('GET', '/metrics')).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && l.includes('resource="configmaps"') && l.includes(labels));
  return Number(line?.split(' ').at(-1) ?? 0);
}

async function namespaces(...names: string[]): Promise<void> {
  for (const name of names)
    expect((await viaB.call('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
}

async function createViaB(ns: string, name: string, labels: Record<string, string>): Promise<number> {
  const res = await viaB.call('POST', cms(ns), { metadata: { name, labels }, data: { by: 'b' } });
  expect(res.status, res.body?.message).toBe(201);
  return Number(res.body.metadata.resourceVersion);
}

it('with the cache held behind, lists see every acknowledged write: namespaced, all namespaces, selected; across a compaction', async () => {
  const spaces = ['held-a', 'held-b', 'held-c', 'held-d', 'held-e'];
  await namespaces(...spaces);
  /** What every list must show: `ns/name` -> its group label and data. */
  const want = new Map<string, { group: string; data: unknown }>();
  const acked: number[] = [];
  const create = async (ns: string, name: string, group: string, direct = false) => {
    acked.push(direct ? await createInEtcd(ns, name, { group }) : await createViaB(ns, name, { group }));
    want.set(`${ns}/${name}`, { group, data: { by: direct ? 'etcd' : 'b' } });
  };
  const update = async (ns: string, name: string) => {
    const { group } = want.get(`${ns}/${name}`)!;
    const data = { by: 'b', updated: String(acked.length) };
    const res = await viaB.call('PUT', cms(ns, `/${name}`), { metadata: { name, labels: { group } }, data });
    expect(res.status).toBe(200);
    acked.push(Number(res.body.metadata.resourceVersion));
    want.set(`${ns}/${name}`, { group, data });
  };
  const remove = async (ns: string, name: string) => {
    expect((await viaB.call('DELETE', cms(ns, `/${name}`))).status).toBe(200);
    want.delete(`${ns}/${name}`);
  };
  /** Every kind of list on A shows exactly `want`, at a resourceVersion not older than `atLeast`. */
  const expectLists = async (atLeast: number) => {
    const paths = [
      ...spaces.map((ns) => cms(ns)),
      cms(),
      cms('held-a', '?labelSelector=group%3Da'),
      cms('held-d', '?labelSelector=group%3Db'),
      cms(undefined, '?labelSelector=group%3Da'),
    ];
    for (const path of paths) {
      const ns = /namespaces\/([^/]+)/.exec(path)?.[1];
      const group = /group%3D(\w)/.exec(path)?.[1];
      const expected = [...want]
        .filter(([key, w]) => (!ns || key.startsWith(`${ns}/`)) && (!group || w.group === group))
        .map(([key, w]) => [key, w.data])
        .sort();
      const list = await listOnA(path);
      const got = [...list.data].filter(([key]) => key.startsWith('held-')).sort();
      expect(got, path).toEqual(expected);
      expect(list.rv, path).toBeGreaterThanOrEqual(atLeast);
    }
  };

  for (let i = 0; i < 5; i++) await create('held-a', `keep-${i}`, i % 2 ? 'b' : 'a');
  for (let i = 0; i < 3; i++) await create('held-c', `quiet-${i}`, 'a');
  for (let i = 0; i < 2; i++) await create('held-d', `same-${i}`, 'b');
  for (let i = 0; i < 2; i++) await create('held-e', `gone-${i}`, 'a');
  // resourceVersion=0 reads A's cache as it is: wait until it has the seeds.
  await expect
    .poll(
      async () =>
        [...(await listOnA(cms(undefined, '?resourceVersion=0'))).data.keys()].filter((k) => k.startsWith('held-'))
          .length,
    )
    .toBe(12);
  await expectLists(Math.max(...acked));

  cache.hold();
  // Other writes (leases, events) may have moved the cache past the seeds before it was held.
  const heldFrom = acked.length;
  for (let i = 0; i < 4; i++) await create('held-a', `new-${i}`, i % 2 ? 'b' : 'a');
  await update('held-a', 'keep-0');
  await remove('held-a', 'keep-1');
  await create('held-b', 'new-b', 'b');
  await create('held-b', 'direct', 'a', true);
  // held-d keeps as many objects: one changed, one replaced by another.
  await update('held-d', 'same-0');
  await remove('held-d', 'same-1');
  await create('held-d', 'same-2', 'b');
  // held-e only loses one (no key there is newer than the cache).
  await remove('held-e', 'gone-0');
  // The cache is behind every one of these writes.
  expect(await metricOnA('apiserver_watch_cache_resource_version')).toBeLessThan(Math.min(...acked.slice(heldFrom)));
  const fellBack = await metricOnA('apiserver_watch_cache_consistent_read_total', 'fallback="true"');
  await expectLists(Math.max(...acked));

  // A compaction of etcd at its current revision between the writes and the lists.
  await create('held-a', 'after', 'a');
  await remove('held-a', 'new-0');
  await update('held-d', 'same-2');
  await kv.compact(await kv.currentRevision());
  await expectLists(Math.max(...acked));
  console.log(
    `held cache: ${(await metricOnA('apiserver_watch_cache_consistent_read_total', 'fallback="true"')) - fellBack} of 18 lists read etcd (fallback); cache at ${await metricOnA('apiserver_watch_cache_resource_version')}, writes up to ${Math.max(...acked)}`,
  );

  cache.release();
  // A list not older than the last write is served by the cache once it has caught up (504 after 3 s otherwise).
  const last = Math.max(...acked);
  const caughtUp = await a.api('GET', cms('held-a', `?resourceVersion=${last}&resourceVersionMatch=NotOlderThan`));
  expect(caughtUp.status).toBe(200);
  await expectLists(last);
});

interface Written {
  readonly ns: string;
  readonly group: string;
  readonly createdAt: number;
  deleteStartedAt?: number;
  deleteAckedAt?: number;
}

it('property: every list sees every write acknowledged before it was sent, with the cache held at times and etcd compacted', async () => {
  const spaces = ['p-0', 'p-1', 'p-2'];
  await namespaces(...spaces);
  let clock = 0;
  const written = new Map<string, Written>(); // `ns/name` -> what was acknowledged
  const acked: { at: number; rv: number }[] = []; // every acknowledged write's revision, in order
  const violations: string[] = [];
  let lists = 0;
  let listsHeld = 0;
  const took: number[] = [];
  // At least 12 s and 100 lists (a loaded machine lists slower), at most 30 s.
  const started = Date.now();
  const done = () => Date.now() - started > 30_000 || (Date.now() - started > 12_000 && lists >= 100);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const live = () => [...written].filter(([, w]) => w.deleteStartedAt === undefined);

  const writer = async (id: string, direct: boolean) => {
    for (let i = 0; !done(); i++) {
      const victims = live();
      if (victims.length > 20 && Math.random() < 0.3) {
        const [key, w] = pick(victims);
        w.deleteStartedAt = clock++;
        const [ns, name] = key.split('/') as [string, string];
        if (direct) {
          const res = await kv.delete(`/registry/configmaps/${ns}/${name}`);
          if (res.succeeded) acked.push({ at: (w.deleteAckedAt = clock++), rv: res.revision });
        } else if ((await viaB.call('DELETE', cms(ns, `/${name}`))).status === 200) w.deleteAckedAt = clock++;
        continue;
      }
      const ns = pick(spaces);
      const group = pick(['a', 'b']);
      const name = `${id}-${i}`;
      let rv: number;
      if (direct) rv = await createInEtcd(ns, name, { group });
      else {
        const res = await viaB.call('POST', cms(ns), { metadata: { name, labels: { group } } });
        if (res.status !== 201) continue; // outcome unknown: nothing promised
        rv = Number(res.body.metadata.resourceVersion);
      }
      const at = clock++;
      written.set(`${ns}/${name}`, { ns, group, createdAt: at });
      acked.push({ at, rv });
    }
  };

  const lister = async () => {
    while (!done()) {
      const ns = Math.random() < 0.6 ? pick(spaces) : undefined;
      const group = Math.random() < 0.4 ? pick(['a', 'b']) : undefined;
      const path = cms(ns, group ? `?labelSelector=group%3D${group}` : '');
      const sentAt = clock++;
      if (cache.held) listsHeld++;
      const sent = Date.now();
      const res = await a.api('GET', path);
      const answeredAt = clock++;
      took.push(Date.now() - sent);
      lists++;
      if (res.status !== 200) {
        violations.push(`${path}: ${res.status} ${res.text.slice(0, 200)}`);
        continue;
      }
      const got = new Map<string, { labels?: Record<string, string> }>();
      for (const o of res.body.items) got.set(`${o.metadata.namespace}/${o.metadata.name}`, o.metadata);
      for (const [key, meta] of got) {
        if ((ns && !key.startsWith(`${ns}/`)) || (group && meta.labels?.group !== group))
          violations.push(`${path}: ${key} is outside the list`);
      }
      for (const [key, w] of written) {
        if ((ns && w.ns !== ns) || (group && w.group !== group)) continue;
        const mustHave = w.createdAt < sentAt && !(w.deleteStartedAt !== undefined && w.deleteStartedAt < answeredAt);
        const mustLack = w.deleteAckedAt !== undefined && w.deleteAckedAt < sentAt;
        if (mustHave && !got.has(key)) violations.push(`${path}: misses ${key}, created before the list`);
        if (mustLack && got.has(key)) violations.push(`${path}: holds ${key}, deleted before the list`);
      }
      const newest = Math.max(0, ...acked.filter((w) => w.at < sentAt).map((w) => w.rv));
      const rv = Number(res.body.metadata.resourceVersion);
      if (rv < newest)
        violations.push(`${path}: resourceVersion ${rv} is older than an acknowledged write at ${newest}`);
    }
  };

  // The cache held for 250 ms, then free for 250 ms; etcd compacted at its current revision after each.
  const faults = async () => {
    // Compacting the revision compacted last time (nothing written since) is refused: nothing to do.
    const compact = async () =>
      kv.compact(await kv.currentRevision()).catch((err: unknown) => {
        if (!(err instanceof KvError && err.code === 'Compacted')) throw err;
      });
    while (!done()) {
      cache.hold();
      await sleep(250);
      await compact();
      cache.release();
      await sleep(250);
      await compact();
    }
  };

  const fellBack = await metricOnA('apiserver_watch_cache_consistent_read_total', 'fallback="true"');
  const fromCache = await metricOnA('apiserver_watch_cache_consistent_read_total', 'fallback="false"');
  await Promise.all([
    writer('w0', false),
    writer('w1', false),
    writer('w2', false),
    writer('d0', true),
    lister(),
    lister(),
    lister(),
    faults(),
  ]);
  const reads = {
    fellBack: (await metricOnA('apiserver_watch_cache_consistent_read_total', 'fallback="true"')) - fellBack,
    fromCache: (await metricOnA('apiserver_watch_cache_consistent_read_total', 'fallback="false"')) - fromCache,
  };
  console.log(
    `property: ${lists} lists (median ${took.sort((x, y) => x - y)[took.length >> 1]} ms; ${listsHeld} sent while the cache was held; ${reads.fellBack} read etcd, ${reads.fromCache} from the cache), ${written.size} creates, ${[...written.values()].filter((w) => w.deleteAckedAt !== undefined).length} deletes acknowledged; ${violations.length} violations`,
    violations.slice(0, 10),
  );
  expect(violations).toEqual([]);
  expect(lists).toBeGreaterThanOrEqual(50);
  expect(listsHeld).toBeGreaterThanOrEqual(10);
  expect(written.size).toBeGreaterThan(100);
});
