/**
 * The Endpoints and EndpointSlice controllers (src/controllers/endpoints/, endpointslice/)
 * started on an in-process server with 2 simulated nodes (which run the scheduler, the
 * ReplicaSet and Deployment controllers and play the kubelet), seen through the API: a
 * Deployment of 2 replicas behind a Service gets `endpoints/<svc>` with 2 ready addresses on
 * the named target port and one EndpointSlice listing both (node, conditions, owner, labels);
 * scaling to 1 leaves one ready address, the removed pod's slice endpoint terminating until it
 * goes; a pod held not ready by a readiness gate is in notReadyAddresses (ready=false in the
 * slice) until pods/status sets the gate's condition; a slice deleted by hand comes back; the
 * Endpoints go with the Service.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer({ simulatedNodes: 2 });
const NS = 'endpoints-ctl';
const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments`;
const ENDPOINTS = `/api/v1/namespaces/${NS}/endpoints/web`;
const SLICES = `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb`;
const wait = { timeout: 15_000, interval: 200 };

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  // The server runs both controllers (with simulated nodes, `*` includes them).
});

const count = (subsets: any[] | undefined, field: 'addresses' | 'notReadyAddresses') =>
  (subsets ?? []).reduce((n, s) => n + (s[field]?.length ?? 0), 0);

async function waitForEndpoints(ready: number, notReady: number): Promise<any> {
  let ep: any;
  await vi.waitFor(async () => {
    ep = (await srv.api('GET', ENDPOINTS)).body;
    expect([count(ep.subsets, 'addresses'), count(ep.subsets, 'notReadyAddresses')]).toEqual([ready, notReady]);
  }, wait);
  return ep;
}

async function waitForSlice(n: number): Promise<any> {
  let slices: any[] = [];
  await vi.waitFor(async () => {
    slices = (await srv.api('GET', SLICES)).body.items;
    expect(slices).toHaveLength(1);
    expect(slices[0].endpoints ?? []).toHaveLength(n);
  }, wait);
  return slices[0];
}

describe('endpoints controllers with simulated nodes', () => {
  let serviceUid = '';

  it('publishes the 2 ready pods of a Deployment behind a Service', async () => {
    const labels = { app: 'web' };
    const deploy = await srv.api('POST', DEPLOY, {
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] },
        },
      },
    });
    expect(deploy.status, deploy.text).toBe(201);
    const svc = await srv.api('POST', `/api/v1/namespaces/${NS}/services`, {
      metadata: { name: 'web', labels: { tier: 'front' } },
      spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    });
    expect(svc.status, svc.text).toBe(201);
    serviceUid = svc.body.metadata.uid;

    const ep = await waitForEndpoints(2, 0);
    expect(ep.metadata.labels).toEqual({ tier: 'front' });
    expect(ep.subsets).toHaveLength(1);
    expect(ep.subsets[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    for (const a of ep.subsets[0].addresses) {
      expect(a.nodeName).toMatch(/^sim-node-/);
      expect(a.targetRef).toMatchObject({ kind: 'Pod', namespace: NS });
      expect(a.targetRef.uid).toBeTruthy();
    }

    const slice = await waitForSlice(2);
    expect(slice.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice.metadata.labels).toEqual({
      tier: 'front',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Service', name: 'web', uid: serviceUid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const ips = ep.subsets[0].addresses.map((a: any) => a.ip).sort();
    expect(slice.endpoints.map((e: any) => e.addresses[0]).sort()).toEqual(ips);
    for (const e of slice.endpoints) {
      expect(e.conditions).toEqual({ ready: true, serving: true, terminating: false });
      expect(e.nodeName).toMatch(/^sim-node-/);
    }
  });

  it('drops the removed pod when the Deployment scales to 1; its slice endpoint is terminating until it goes', async () => {
    const res = await srv.api(
      'PATCH',
      `${DEPLOY}/web`,
      { spec: { replicas: 1 } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(res.status, res.text).toBe(200);
    await waitForEndpoints(1, 0);
    await vi.waitFor(async () => {
      const [slice] = (await srv.api('GET', SLICES)).body.items;
      const conditions = slice.endpoints.map((e: any) => e.conditions);
      expect(conditions).toContainEqual({ ready: true, serving: true, terminating: false });
      expect(conditions.filter((c: any) => c.ready)).toHaveLength(1);
      if (conditions.length === 2)
        expect(conditions).toContainEqual({ ready: false, serving: true, terminating: true });
    }, wait);
  });

  it('lists a pod not ready (a readiness gate) in notReadyAddresses until pods/status says otherwise', async () => {
    const res = await srv.api('POST', `/api/v1/namespaces/${NS}/pods`, {
      metadata: { name: 'gated', labels: { app: 'web' } },
      spec: {
        readinessGates: [{ conditionType: 'example.com/feature' }],
        containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
      },
    });
    expect(res.status, res.text).toBe(201);
    const ep = await waitForEndpoints(1, 1);
    const notReady = ep.subsets.flatMap((s: any) => s.notReadyAddresses ?? []);
    expect(notReady.map((a: any) => a.targetRef.name)).toEqual(['gated']);
    await vi.waitFor(async () => {
      const [slice] = (await srv.api('GET', SLICES)).body.items;
      const gated = slice.endpoints.find((e: any) => e.targetRef.name === 'gated');
      expect(gated?.conditions).toEqual({ ready: false, serving: false, terminating: false });
    }, wait);

    const status = await srv.api(
      'PATCH',
      `/api/v1/namespaces/${NS}/pods/gated/status`,
      { status: { conditions: [{ type: 'example.com/feature', status: 'True' }] } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    expect(status.status, status.text).toBe(200);
    await waitForEndpoints(2, 0);
  });

  it('puts back a slice deleted by hand and deletes the Endpoints with the Service', async () => {
    const [slice] = (await srv.api('GET', SLICES)).body.items;
    const del = await srv.api(
      'DELETE',
      `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices/${slice.metadata.name}`,
    );
    expect(del.status, del.text).toBe(200);
    await vi.waitFor(async () => {
      const items = (await srv.api('GET', SLICES)).body.items;
      expect(items).toHaveLength(1);
      expect(items[0].metadata.name).not.toBe(slice.metadata.name);
      expect(items[0].endpoints.filter((e: any) => e.conditions.ready)).toHaveLength(2);
    }, wait);

    expect((await srv.api('DELETE', `/api/v1/namespaces/${NS}/services/web`)).status).toBe(200);
    await vi.waitFor(async () => expect((await srv.api('GET', ENDPOINTS)).status).toBe(404), wait);
  });
});
