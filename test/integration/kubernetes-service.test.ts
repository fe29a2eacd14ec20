/**
 * The `kubernetes` Service and Endpoints in `default`: the Service on the first address of the
 * service range, port 443 named https to the secure port; the Endpoints list every replica whose
 * lease is alive, stay unchanged while nothing changes, and drop a replica whose lease expires.
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
    await sleep(700); // several renewals
    expect((await srv.api('GET', eps)).body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
  });

  it('lists another live replica and drops it once its lease expires', async () => {
    const storage = srv.running.deps.storage;
    const lease = await storage.kv.grantLease(2);
    await storage.kv.create(storage.fullKey(`masterleases/${otherIp}`), JSON.stringify({ ip: otherIp }), lease);
    expect(await addressesUntil((ips) => ips.includes(otherIp))).toEqual([hostIp, otherIp].sort());
    expect(await addressesUntil((ips) => !ips.includes(otherIp), 8000)).toEqual([hostIp]);
  });
});
