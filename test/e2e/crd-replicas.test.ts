/**
 * CustomResourceDefinitions across two replicas on one etcd: a definition created through one
 * is served by the other as soon as it is Established there (every replica runs the CRD
 * controller and learns of definitions through its watch); custom objects written through
 * one are watched through the other; a deletion through the other empties and removes it.
 * (How fast the second replica serves is measured by bench/crd.ts, not asserted here.)
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callServer, E2E_TOKEN, type ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';
import { crd } from '../helpers/crds.js';
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

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const TOYS = '/apis/replicas.example.com/v1/namespaces/default/toys';

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('serves on one replica a definition created through the other, and deletes it with its objects', async () => {
  const def = crd({ group: 'replicas.example.com', plural: 'toys', kind: 'Toy' });
  expect((await call(a, agentA, 'POST', CRDS, def)).status).toBe(201);
  await until('the other replica to serve toys', async () => (await call(b, agentB, 'GET', TOYS)).status === 200);
  const established = await call(b, agentB, 'GET', `${CRDS}/${def.metadata.name}`);
  expect(established.body.status.conditions.find((c: any) => c.type === 'Established').status).toBe('True');

  const rv = (await call(b, agentB, 'GET', TOYS)).body.metadata.resourceVersion;
  const watch = await openWatch(`${b.url}${TOYS}?watch=true&resourceVersion=${rv}`, E2E_TOKEN, agentB);
  try {
    for (const name of ['t1', 't2'])
      expect(
        (
          await call(a, agentA, 'POST', TOYS, {
            apiVersion: 'replicas.example.com/v1',
            kind: 'Toy',
            metadata: { name },
          })
        ).status,
      ).toBe(201);
    const added = await watch.next(2, 10_000);
    expect(added.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 't1'],
      ['ADDED', 't2'],
    ]);
    expect((await call(b, agentB, 'DELETE', `${CRDS}/${def.metadata.name}`)).status).toBe(200);
    const deleted = await watch.next(2, 10_000);
    expect(deleted.map((e) => e.type)).toEqual(['DELETED', 'DELETED']);
  } finally {
    watch.close();
  }
  await until(
    'the definition to go',
    async () => (await call(a, agentA, 'GET', `${CRDS}/${def.metadata.name}`)).status === 404,
  );
  await until('both replicas to stop serving toys', async () =>
    (await Promise.all([call(a, agentA, 'GET', TOYS), call(b, agentB, 'GET', TOYS)])).every((r) => r.status === 404),
  );
});
