/** Deletion lifecycles: propagation policies with the garbage collector, graceful pod deletion, namespaces. */
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const srv = useTestServer();

const ns = '/api/v1/namespaces/default';

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function rcWithPods(name: string, pods: number) {
  const rc = await srv.api('POST', `${ns}/replicationcontrollers`, {
    metadata: { name },
    spec: {
      replicas: pods,
      selector: { rc: name },
      template: { metadata: { labels: { rc: name } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    },
  });
  const owner = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    name,
    uid: rc.body.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  for (let i = 0; i < pods; i++) {
    const res = await srv.api('POST', `${ns}/pods`, {
      metadata: { name: `${name}-${i}`, labels: { rc: name }, ownerReferences: [owner] },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    });
    expect(res.status).toBe(201);
  }
  return rc.body;
}

const podsOf = async (name: string) =>
  (await srv.api('GET', `${ns}/pods?labelSelector=rc%3D${name}`)).body.items as any[];

describe('propagation policies', () => {
  it('Foreground deletes the owned pods first, then the controller', async () => {
    const rc = await rcWithPods('fg', 3);
    const w = await openWatch(
      `${srv.url}/api/v1/watch/namespaces/default/pods?resourceVersion=${rc.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    const rcWatch = await openWatch(
      `${srv.url}${ns}/replicationcontrollers?watch=1&fieldSelector=metadata.name%3Dfg&resourceVersion=${rc.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    const del = await srv.api('DELETE', `${ns}/replicationcontrollers/fg`, { propagationPolicy: 'Foreground' });
    expect(del.status).toBe(200);
    expect(del.body.metadata).toMatchObject({
      finalizers: ['foregroundDeletion'],
      deletionTimestamp: expect.any(String),
    });
    const gone = await eventually(
      () => srv.api('GET', `${ns}/replicationcontrollers/fg`),
      (r) => r.status === 404,
    );
    expect(gone.status).toBe(404);
    expect(await podsOf('fg')).toEqual([]);
    const podEvents = (await w.next(6)).filter((e) => e.type === 'DELETED');
    const rcEvents = await rcWatch.next(2);
    expect(rcEvents.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    const lastPod = Math.max(...podEvents.map((e) => Number(e.object.metadata.resourceVersion)));
    expect(Number(rcEvents[1].object.metadata.resourceVersion)).toBeGreaterThan(lastPod);
    w.close();
    rcWatch.close();
  });

  it('Orphan deletes the controller and leaves its pods without the owner reference', async () => {
    await rcWithPods('orphaner', 2);
    const del = await srv.api('DELETE', `${ns}/replicationcontrollers/orphaner`, { propagationPolicy: 'Orphan' });
    expect(del.status).toBe(200);
    await eventually(
      () => srv.api('GET', `${ns}/replicationcontrollers/orphaner`),
      (r) => r.status === 404,
    );
    const pods = await podsOf('orphaner');
    expect(pods).toHaveLength(2);
    expect(pods.map((p) => p.metadata.ownerReferences ?? [])).toEqual([[], []]);
  });

  it('Background deletes the controller at once and its pods soon after; other owners keep a dependent alive', async () => {
    const rc = await rcWithPods('bg', 2);
    const other = await srv.api('POST', `${ns}/configmaps`, { metadata: { name: 'other-owner' } });
    await srv.api(
      'PATCH',
      `${ns}/pods/bg-1`,
      {
        metadata: {
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ReplicationController', name: 'bg', uid: rc.metadata.uid },
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'other-owner', uid: other.body.metadata.uid },
          ],
        },
      },
      { 'content-type': 'application/merge-patch+json' },
    );
    const del = await srv.api('DELETE', `${ns}/replicationcontrollers/bg`, { propagationPolicy: 'Background' });
    expect(del.body).toMatchObject({ kind: 'Status', status: 'Success' });
    const pods = await eventually(
      () => podsOf('bg'),
      (p) => p.length === 1 && (p[0].metadata.ownerReferences ?? []).length === 1,
    );
    expect(pods.map((p) => p.metadata.name)).toEqual(['bg-1']);
    expect(pods[0].metadata.ownerReferences.map((r: any) => r.name)).toEqual(['other-owner']);
  });
});

describe('graceful pod deletion', () => {
  it('keeps a bound pod until its grace ends, lets later deletes only shorten it, then collects it when its node is gone', async () => {
    await srv.api('POST', `${ns}/pods`, {
      metadata: { name: 'graceful' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    });
    await srv.api('POST', `${ns}/pods/graceful/binding`, {
      metadata: { name: 'graceful' },
      target: { name: 'ghost-node' },
    });
    const first = await srv.api('DELETE', `${ns}/pods/graceful`, { gracePeriodSeconds: 2 });
    expect(first.status).toBe(200);
    expect(first.body.metadata.deletionGracePeriodSeconds).toBe(2);
    const longer = await srv.api('DELETE', `${ns}/pods/graceful`, { gracePeriodSeconds: 60 });
    expect(longer.body.metadata.deletionTimestamp).toBe(first.body.metadata.deletionTimestamp);
    const shorter = await srv.api('DELETE', `${ns}/pods/graceful`, { gracePeriodSeconds: 1 });
    expect(shorter.body.metadata.deletionGracePeriodSeconds).toBe(1);
    expect((await srv.api('GET', `${ns}/pods/graceful`)).status).toBe(200);
    const gone = await eventually(
      () => srv.api('GET', `${ns}/pods/graceful`),
      (r) => r.status === 404,
      5000,
    );
    expect(gone.status).toBe(404);
  });

  it('deletes unscheduled pods at once and leaves pods on an existing node to their kubelet', async () => {
    await srv.api('POST', `${ns}/pods`, {
      metadata: { name: 'unbound' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    });
    expect((await srv.api('DELETE', `${ns}/pods/unbound`)).status).toBe(200);
    expect((await srv.api('GET', `${ns}/pods/unbound`)).status).toBe(404);
    await srv.api('POST', '/api/v1/nodes', { metadata: { name: 'real-node' } });
    await srv.api('POST', `${ns}/pods`, {
      metadata: { name: 'on-node' },
      spec: { nodeName: 'real-node', containers: [{ name: 'c', image: 'i' }] },
    });
    await srv.api('DELETE', `${ns}/pods/on-node`, { gracePeriodSeconds: 0 });
    expect((await srv.api('GET', `${ns}/pods/on-node`)).status).toBe(404);
    await srv.api('POST', `${ns}/pods`, {
      metadata: { name: 'on-node-2' },
      spec: { nodeName: 'real-node', containers: [{ name: 'c', image: 'i' }] },
    });
    await srv.api('DELETE', `${ns}/pods/on-node-2`, { gracePeriodSeconds: 1 });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await srv.api('GET', `${ns}/pods/on-node-2`)).body.metadata.deletionTimestamp).toBeTruthy();
  });
});

describe('namespace deletion', () => {
  it('removes 100 objects of several kinds, each seen DELETED by a watch, then the namespace', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'hundred' } });
    const kinds = ['configmaps', 'secrets', 'serviceaccounts', 'services', 'pods'];
    for (let i = 0; i < 100; i++) {
      const kind = kinds[i % kinds.length];
      const body: any = { metadata: { name: `o-${i}` } };
      if (kind === 'pods') body.spec = { containers: [{ name: 'c', image: 'i' }] };
      if (kind === 'services') body.spec = { ports: [{ port: 80 }] };
      expect((await srv.api('POST', `/api/v1/namespaces/hundred/${kind}`, body)).status).toBe(201);
    }
    const rv = (await srv.api('GET', '/api/v1/namespaces/hundred/configmaps')).body.metadata.resourceVersion;
    const watches = await Promise.all(
      kinds.map((k) =>
        openWatch(`${srv.url}/api/v1/namespaces/hundred/${k}?watch=1&resourceVersion=${rv}`, TEST_TOKEN, srv.agent),
      ),
    );
    expect((await srv.api('DELETE', '/api/v1/namespaces/hundred')).status).toBe(200);
    const gone = await eventually(
      () => srv.api('GET', '/api/v1/namespaces/hundred'),
      (r) => r.status === 404,
      20_000,
    );
    expect(gone.status).toBe(404);
    const deleted = new Set<string>();
    // Pods are first marked (MODIFIED), then removed (DELETED); read until each kind's 20 are gone.
    for (const w of watches) {
      let seen = 0;
      while (seen < 20) {
        const [ev] = await w.next(1, 10_000);
        if (ev.type === 'DELETED') {
          deleted.add(ev.object.metadata.name);
          seen++;
        }
      }
      w.close();
    }
    expect(deleted.size).toBe(100);
    for (const k of kinds) expect((await srv.api('GET', `/api/v1/namespaces/hundred/${k}`)).body.items).toEqual([]);
  });
});
