/**
 * The `kubernetes` Service, Endpoints and EndpointSlice in `default`: the Service on the first
 * address of the service range, port 443 named https to the secure port; the Endpoints and the
 * slice list every replica whose lease is alive, stay unchanged while nothing changes, and drop
 * a replica whose lease expires.
 */
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

// Upstream's Endpoints validation refuses loopback addresses, so the replica advertises (and
// listens on) a non-loopback address of this host.
const hostIp =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address ?? '127.0.0.1';
const otherIp = '192.0.2.99';
const srv = useTestServer({
  endpointReconcileIntervalSeconds: 0.2,
  serviceClusterIpRange: '10.96.0.0/24',
  advertiseAddress: hostIp,
  bindAddress: hostIp,
});
const svc = '/api/v1/namespaces/default/services/kubernetes';
const eps = '/api/v1/namespaces/default/endpoints/kubernetes';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function addressesUntil(ok: (ips: string[]) => boolean, ms = 5000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await srv.api('GET', eps);
    const ips: string[] = (res.body.subsets ?? []).flatMap((s: any) => (s.addresses ?? []).map((a: any) => a.ip));
    if (ok(ips) || Date.now() > deadline) return ips;
    await sleep(50);
  }
}

describe('the kubernetes Service', () => {
  it('exists with the first cluster IP of the range and port 443 to the secure port', async () => {
    const res = await srv.api('GET', svc);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { component: 'apiserver', provider: 'kubernetes' },
      },
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.1',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: srv.running.port }],
      },
    });
  });

  it('has Endpoints with this replica on the secure port, unchanged while nothing changes', async () => {
    expect(await addressesUntil((ips) => ips.includes(hostIp))).toEqual([hostIp]);
    const first = await srv.api('GET', eps);
    expect(first.body.subsets).toEqual([
      { addresses: [{ ip: hostIp }], ports: [{ name: 'https', port: srv.running.port, protocol: 'TCP' }] },
    ]);
    expect(first.body.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    await sleep(700); // several renewals
    expect((await srv.api('GET', eps)).body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
  });

  it('has the EndpointSlice kubernetes as upstream writes it, and removes other slices of the service', async () => {
    const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
    const deadline = Date.now() + 5000;
    let slice = await srv.api('GET', `${slices}/kubernetes`);
    while (slice.status !== 200 && Date.now() < deadline) {
      await sleep(50);
      slice = await srv.api('GET', `${slices}/kubernetes`);
    }
    expect(slice.body).toMatchObject({
      metadata: { name: 'kubernetes', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [hostIp], conditions: { ready: true } }],
      ports: [{ name: 'https', port: srv.running.port, protocol: 'TCP' }],
    });
    const stray = await srv.api('POST', slices, {
      metadata: { name: 'kubernetes-stray', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['192.0.2.7'] }],
      ports: [],
    });
    expect(stray.status).toBe(201);
    const gone = Date.now() + 5000;
    while ((await srv.api('GET', `${slices}/kubernetes-stray`)).status !== 404 && Date.now() < gone) await sleep(50);
    expect((await srv.api('GET', `${slices}/kubernetes-stray`)).status).toBe(404);
    // A change by hand is set right at the next reconcile.
    const edited = await srv.api('PUT', `${slices}/kubernetes`, { ...slice.body, endpoints: [] });
    expect(edited.status).toBe(200);
    const back = Date.now() + 5000;
    let now = edited;
    while (!(now.body.endpoints ?? []).length && Date.now() < back) {
      await sleep(50);
      now = await srv.api('GET', `${slices}/kubernetes`);
    }
    expect(now.body.endpoints).toEqual([{ addresses: [hostIp], conditions: { ready: true } }]);
  });

  it('lists another live replica and drops it once its lease expires', async () => {
    const storage = srv.running.deps.storage;
    const lease = await storage.kv.grantLease(2);
    await storage.kv.create(storage.fullKey(`masterleases/${otherIp}`), JSON.stringify({ ip: otherIp }), lease);
    expect(await addressesUntil((ips) => ips.includes(otherIp))).toEqual([hostIp, otherIp].sort());
    expect(await addressesUntil((ips) => !ips.includes(otherIp), 8000)).toEqual([hostIp]);
    const slice = await srv.api('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes');
    expect(slice.body.endpoints.map((e: { addresses: string[] }) => e.addresses[0])).toEqual([hostIp]);
  });
});
