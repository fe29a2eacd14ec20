/**
 * Controller failover: the replica running the controllers is killed (SIGKILL, so it never
 * gives its lease up). Right after, through the surviving replica, a namespace with content is
 * deleted and a ReplicationController is deleted in Background with dependents left behind.
 * The survivor takes over within the lease duration and scans at once: the namespace is gone
 * and the dependents are collected within 20 s of the kill.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(2);
const clients = new Map<ServerProcess, Client>();
beforeAll(() => {
  for (const s of started.servers) clients.set(s, clientFor(s));
});
afterAll(async () => {
  for (const c of clients.values()) await c.close();
});

/** Replicas whose last leadership message says they lead. */
function leaders(): ServerProcess[] {
  return started.servers.filter((s) => {
    const msgs = s.logs
      .map((l) => l.msg)
      .filter((m) => m === 'became leader: starting controllers' || m === 'lost leadership: stopping controllers');
    return (
      msgs.at(-1) === 'became leader: starting controllers' && s.child.exitCode === null && s.child.signalCode === null
    );
  });
}

async function waitFor(what: string, deadline: number, check: () => Promise<boolean>): Promise<number> {
  while (Date.now() < deadline) {
    if (await check()) return Date.now();
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen in time`);
}

it('a new leader finishes a deleted namespace and collects an owner’s dependents within 20 s of the old leader’s death', async () => {
  await waitFor('a leader', Date.now() + 20_000, async () => leaders().length === 1);
  const [leader] = leaders();
  const survivor = started.servers.find((s) => s !== leader)!;
  const api = clients.get(survivor)!;
  const ns = '/api/v1/namespaces';
  expect((await api.call('POST', ns, { metadata: { name: 'failover' } })).status).toBe(201);
  expect((await api.call('POST', `${ns}/failover/configmaps`, { metadata: { name: 'content' } })).status).toBe(201);
  const rc = await api.call('POST', `${ns}/default/replicationcontrollers`, {
    metadata: { name: 'owner' },
    spec: {
      replicas: 1,
      selector: { app: 'owner' },
      template: { metadata: { labels: { app: 'owner' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  });
  expect(rc.status).toBe(201);
  const ownerRef = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    name: 'owner',
    uid: rc.body.metadata.uid,
    controller: true,
  };
  for (const name of ['dep-a', 'dep-b']) {
    const pod = {
      metadata: { name, ownerReferences: [ownerRef] },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    expect((await api.call('POST', `${ns}/default/pods`, pod)).status).toBe(201);
  }

  leader.child.kill('SIGKILL');
  const killed = Date.now();
  expect((await api.call('DELETE', `${ns}/failover`)).status).toBe(200);
  expect(
    (
      await api.call('DELETE', `${ns}/default/replicationcontrollers/owner`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Background',
      })
    ).status,
  ).toBe(200);

  const deadline = killed + 20_000;
  await waitFor('the namespace to go', deadline, async () => (await api.call('GET', `${ns}/failover`)).status === 404);
  await waitFor('the dependents to go', deadline, async () => {
    const statuses = await Promise.all(
      ['dep-a', 'dep-b'].map(async (n) => (await api.call('GET', `${ns}/default/pods/${n}`)).status),
    );
    return statuses.every((s) => s === 404);
  });
  expect(leaders()).toEqual([survivor]);
});
