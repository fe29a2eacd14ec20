// The server on its embedded store, as a user runs it without etcd: what was written survives a
// restart with the same resourceVersions, a watch from an old resourceVersion replays what came
// after it, and a kill -9 under write load loses no acknowledged write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, expect, it } from 'vitest';
import { clientFor } from '../helpers/api-client.js';
import { E2E_TOKEN, startServerProcess } from '../helpers/server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ck-embedded-e2e-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const start = () => startServerProcess([], [`--data-dir=${dataDir}`]);
const PATH = '/api/v1/namespaces/default/configmaps';

it('keeps objects, resourceVersions and history across a restart; a watch older than the new watch cache gets 410', async () => {
  let server = await start();
  let api = clientFor(server);
  const first = await api.call('POST', PATH, { metadata: { name: 'first' }, data: { n: '1' } });
  expect(first.status).toBe(201);
  const second = await api.call('PUT', `${PATH}/first`, { ...first.body, data: { n: '2' } });
  expect((await api.call('POST', PATH, { metadata: { name: 'other' } })).status).toBe(201);
  const listed = await api.call('GET', PATH);
  await api.close();
  await server.stop();

  server = await start();
  api = clientFor(server);
  try {
    const again = await api.call('GET', PATH);
    expect(again.body.items).toEqual(listed.body.items);
    // The store revision carries on (the restarted server's own writes, such as its controller
    // lease, come after it).
    expect(Number(again.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(listed.body.metadata.resourceVersion),
    );
    // History survived: a list at exactly the first create's resourceVersion reads that state.
    const then = await api.call(
      'GET',
      `${PATH}?resourceVersion=${first.body.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    );
    expect(then.status).toBe(200);
    expect(then.body.items.map((i: any) => [i.metadata.name, i.data])).toEqual([['first', { n: '1' }]]);
    // A watch from it is older than the restarted server's watch cache: 410 "too old resource
    // version", and the client relists (upstream after an API server restart).
    const old = await request(
      `${server.url}${PATH}?watch=1&resourceVersion=${first.body.metadata.resourceVersion}&timeoutSeconds=2`,
      {
        dispatcher: api.agent,
        headers: { authorization: `Bearer ${E2E_TOKEN}` },
      },
    );
    const [expired] = (await old.body.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(expired).toMatchObject({
      type: 'ERROR',
      object: { code: 410, reason: 'Expired', message: expect.stringMatching(/^too old resource version/) },
    });
    // A watch from the listed resourceVersion sees what follows.
    const res = await request(
      `${server.url}${PATH}?watch=1&resourceVersion=${again.body.metadata.resourceVersion}&timeoutSeconds=2`,
      {
        dispatcher: api.agent,
        headers: { authorization: `Bearer ${E2E_TOKEN}` },
      },
    );
    const third = await api.call('PUT', `${PATH}/first`, {
      ...second.body,
      metadata: { ...second.body.metadata, resourceVersion: undefined },
      data: { n: '3' },
    });
    expect(third.status).toBe(200);
    const events = (await res.body.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion])).toEqual([
      ['MODIFIED', 'first', third.body.metadata.resourceVersion],
    ]);
  } finally {
    await api.close();
    await server.stop();
  }
});

it('loses no acknowledged write when killed with SIGKILL under write load', async () => {
  const server = await start();
  const api = clientFor(server);
  const acknowledged: string[] = [];
  let stop = false;
  const writer = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const name = `load-${w}-${i}`;
      const res = await api.call('POST', PATH, { metadata: { name }, data: { w: String(w) } }).catch(() => undefined);
      if (res?.status === 201) acknowledged.push(`${name}@${res.body.metadata.resourceVersion}`);
      else if (res) break;
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  await new Promise((r) => setTimeout(r, 3000));
  server.child.kill('SIGKILL');
  stop = true;
  await Promise.all(writers);
  await api.close();
  await server.stop();
  expect(acknowledged.length).toBeGreaterThan(20);

  const restarted = await start();
  const client = clientFor(restarted);
  try {
    const list = await client.call('GET', `${PATH}?labelSelector=`);
    const stored = new Set(list.body.items.map((o: any) => `${o.metadata.name}@${o.metadata.resourceVersion}`));
    const lost = acknowledged.filter((a) => !stored.has(a));
    console.log(`kill -9 under load: ${acknowledged.length} writes acknowledged, ${lost.length} lost`);
    expect(lost).toEqual([]);
  } finally {
    await client.close();
    await restarted.stop();
  }
});
