/** Two server processes on one etcd: writes through one are read and watched through the other. */
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callServer, E2E_TOKEN, type ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';
import { openWatch } from '../helpers/watch-stream.js';

const started = serversOnEtcd(2);
let a: ServerProcess;
let b: ServerProcess;
let agentA: Agent;
let agentB: Agent;

beforeAll(() => {
  [a, b] = started.servers;
  agentA = new Agent({ connect: { ca: a.caPem } });
  agentB = new Agent({ connect: { ca: b.caPem } });
});
afterAll(async () => {
  await agentA?.close();
  await agentB?.close();
});

const call = callServer;

it('reads and watches through one replica what was written through the other', async () => {
  const path = '/api/v1/namespaces/default/configmaps';
  const list = await call(b, agentB, 'GET', path);
  const watch = await openWatch(
    `${b.url}${path}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
    E2E_TOKEN,
    agentB,
  );
  try {
    const created = await call(a, agentA, 'POST', path, { metadata: { name: 'shared' }, data: { x: '1' } });
    expect(created.status).toBe(201);
    const read = await call(b, agentB, 'GET', `${path}/shared`);
    expect(read.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    const updated = await call(a, agentA, 'PUT', `${path}/shared`, { ...created.body, data: { x: '2' } });
    expect(updated.status).toBe(200);
    const stale = await call(b, agentB, 'PUT', `${path}/shared`, { ...created.body, data: { x: '3' } });
    expect(stale.status).toBe(409);
    await call(a, agentA, 'DELETE', `${path}/shared`);
    const evs = await watch.next(3, 10_000);
    expect(evs.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([
      ['ADDED', created.body.metadata.resourceVersion],
      ['MODIFIED', updated.body.metadata.resourceVersion],
      ['DELETED', expect.stringMatching(/^\d+$/)],
    ]);
  } finally {
    watch.close();
  }
});

it('gives 50 Services created at once through two replicas 50 distinct cluster IPs', async () => {
  const path = '/api/v1/namespaces/default/services';
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      i % 2
        ? call(a, agentA, 'POST', path, { metadata: { name: `svc-${i}` }, spec: { ports: [{ port: 80 }] } })
        : call(b, agentB, 'POST', path, { metadata: { name: `svc-${i}` }, spec: { ports: [{ port: 80 }] } }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
  const ips = results.map((r) => r.body.spec.clusterIP);
  expect(new Set(ips).size).toBe(50);
});

it('runs the controllers on exactly one replica, which serves every replica', async () => {
  const leaders = () =>
    started.servers.filter(
      (s) =>
        s.logs.filter((l) => l.msg === 'became leader: starting controllers').length >
        s.logs.filter((l) => l.msg === 'lost leadership: stopping controllers').length,
    );
  for (let i = 0; i < 50 && leaders().length !== 1; i++) await new Promise((r) => setTimeout(r, 100));
  expect(leaders()).toHaveLength(1);
  // The leader deletes namespaces' content; prove it works whichever replica the request hit.
  expect((await call(b, agentB, 'POST', '/api/v1/namespaces', { metadata: { name: 'gone-soon' } })).status).toBe(201);
  expect((await call(a, agentA, 'DELETE', '/api/v1/namespaces/gone-soon')).status).toBe(200);
  let status = 200;
  for (let i = 0; i < 100 && status !== 404; i++) {
    status = (await call(b, agentB, 'GET', '/api/v1/namespaces/gone-soon')).status;
    if (status !== 404) await new Promise((r) => setTimeout(r, 100));
  }
  expect(status).toBe(404);
});
