/**
 * List and watch semantics on etcd with two replicas: a chunked list during heavy churn is
 * exactly the snapshot of its first revision; compaction expires a continue token (410) whose
 * replacement lists the remainder; a watch on one replica sees every write made through the
 * other exactly once, in order, and resuming after a disconnect misses nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKvStore } from '../../src/storage/kv/open.js';
import { clientFor, type Client } from '../helpers/api-client.js';
import { E2E_TOKEN } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';
import { openWatch, type WatchEventJson } from '../helpers/watch-stream.js';

const started = serversOnEtcd(2);
let a: Client;
let b: Client;
beforeAll(() => {
  a = clientFor(started.servers[0]);
  b = clientFor(started.servers[1]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

async function namespace(name: string) {
  expect((await a.call('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
}

/** Run `total` random creates, updates and deletes with `parallel` writers. */
async function churn(client: Client, ns: string, total: number, parallel: number, names: string[]) {
  let done = 0;
  const writer = async () => {
    while (done < total) {
      const n = done++;
      const op = n % 3;
      if (op === 0 || names.length < 50) {
        const name = `churn-${n}`;
        if ((await client.call('POST', path(ns), { metadata: { name }, data: { n: String(n) } })).status === 201)
          names.push(name);
      } else if (op === 1) {
        const name = names[n % names.length];
        await client.call('PATCH', `${path(ns)}/${name}`, { data: { n: String(n) } }, 'application/merge-patch+json');
      } else {
        const [name] = names.splice(n % names.length, 1);
        await client.call('DELETE', `${path(ns)}/${name}`);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, writer));
}

describe('on etcd', () => {
  it('a chunked list (limit=50) during 5,000 writes returns exactly the snapshot of its first revision', async () => {
    await namespace('churn');
    const names: string[] = [];
    for (let i = 0; i < 300; i++) {
      const name = `seed-${String(i).padStart(3, '0')}`;
      await a.call('POST', path('churn'), { metadata: { name }, data: { n: '0' } });
      names.push(name);
    }
    const writes = churn(a, 'churn', 5000, 4, names);
    await new Promise((r) => setTimeout(r, 200));
    const seen: { name: string; rv: string }[] = [];
    let token = '';
    let listRv = '';
    do {
      const res = await b.call(
        'GET',
        `${path('churn')}?limit=50${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
      );
      expect(res.status).toBe(200);
      listRv ||= res.body.metadata.resourceVersion;
      expect(res.body.metadata.resourceVersion).toBe(listRv);
      seen.push(...res.body.items.map((i: any) => ({ name: i.metadata.name, rv: i.metadata.resourceVersion })));
      token = res.body.metadata.continue ?? '';
      await new Promise((r) => setTimeout(r, 30));
    } while (token);
    await writes;
    const snapshot = await a.call('GET', `${path('churn')}?limit=100000&resourceVersion=${listRv}`);
    expect(snapshot.status).toBe(200);
    const expected = snapshot.body.items.map((i: any) => ({ name: i.metadata.name, rv: i.metadata.resourceVersion }));
    expect(new Set(seen.map((s) => s.name)).size).toBe(seen.length);
    expect(seen).toEqual(expected);
    const latest = await a.call('GET', path('churn'));
    expect(Number(latest.body.metadata.resourceVersion)).toBeGreaterThan(Number(listRv) + 4000);
  });

  it('after a compaction past a token, the next chunk is 410 Expired and its continue token lists the remainder', async () => {
    await namespace('expiry');
    for (let i = 0; i < 30; i++)
      await a.call('POST', path('expiry'), { metadata: { name: `e-${String(i).padStart(2, '0')}` } });
    const first = await b.call('GET', `${path('expiry')}?limit=10`);
    await a.call('POST', path('expiry'), { metadata: { name: 'e-99-late' } });
    const kv = await openKvStore([started.etcdEndpoint]);
    try {
      await kv.compact(await kv.currentRevision());
    } finally {
      await kv.close();
    }
    const gone = await b.call('GET', `${path('expiry')}?limit=10&continue=${first.body.metadata.continue}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ reason: 'Expired', code: 410, metadata: { continue: expect.any(String) } });
    const names = first.body.items.map((i: any) => i.metadata.name);
    let token = gone.body.metadata.continue;
    while (token) {
      const res = await a.call('GET', `${path('expiry')}?limit=10&continue=${token}`);
      expect(res.status).toBe(200);
      names.push(...res.body.items.map((i: any) => i.metadata.name));
      token = res.body.metadata.continue;
    }
    expect(names).toEqual([...Array.from({ length: 30 }, (_, i) => `e-${String(i).padStart(2, '0')}`), 'e-99-late']);
    const stale = await b.call(
      'GET',
      `${path('expiry')}?limit=10&resourceVersion=${first.body.metadata.resourceVersion}`,
    );
    expect(stale.status).toBe(410);
  });

  it('a watch on one replica from a list resourceVersion sees every write through the other once, in order, across a reconnect', async () => {
    await namespace('watched');
    const list = await b.call('GET', path('watched'));
    const [serverA, serverB] = started.servers;
    const url = (rv: string) => `${serverB.url}${path('watched')}?watch=true&resourceVersion=${rv}`;
    const expected: string[] = [];
    const record = (verb: string, res: { body: any }) =>
      expected.push(`${verb}:${res.body.metadata?.name ?? res.body.details?.name}`);
    let w = await openWatch(url(list.body.metadata.resourceVersion), E2E_TOKEN, b.agent);
    const events: WatchEventJson[] = [];
    for (let i = 0; i < 40; i++)
      record('ADDED', await a.call('POST', path('watched'), { metadata: { name: `w-${i}` } }));
    events.push(...(await w.next(40, 20_000)));
    w.close();
    const resumeFrom = events.at(-1)!.object.metadata.resourceVersion;
    // Writes while no watch is open, then resume from the last seen resourceVersion.
    for (let i = 0; i < 20; i++) {
      record(
        'MODIFIED',
        await a.call('PATCH', `${path('watched')}/w-${i}`, { data: { i: String(i) } }, 'application/merge-patch+json'),
      );
      if (i % 2) record('DELETED', await a.call('DELETE', `${path('watched')}/w-${i + 20}`));
    }
    w = await openWatch(url(resumeFrom), E2E_TOKEN, b.agent);
    events.push(...(await w.next(30, 20_000)));
    w.close();
    expect(events.map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual(expected);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    expect(new Set(rvs).size).toBe(rvs.length);
    expect(serverA.url).not.toBe(serverB.url);
  });
});
