/** Service cluster IP and node port allocation, as clients see it. */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer({ serviceClusterIpRange: '10.96.0.0/28', serviceNodePortRange: '30000-30009' });

const svcs = '/api/v1/namespaces/default/services';
const svc = (name: string, spec: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});
const causes = (res: { body: any }) => res.body.details?.causes?.map((c: any) => `${c.field}: ${c.message}`);

describe('cluster IPs', () => {
  it('allocates free IPs, honours requests, and rejects taken or out-of-range ones', async () => {
    // A requested IP is only guaranteed while free, so it is asked for first.
    const fixed = await srv.api('POST', svcs, svc('fixed', { clusterIP: '10.96.0.14' }));
    expect(fixed.body.spec.clusterIP).toBe('10.96.0.14');
    const auto = await srv.api('POST', svcs, svc('auto'));
    expect(auto.status, auto.text).toBe(201);
    expect(auto.body.spec.clusterIP).toMatch(/^10\.96\.0\.(\d|1[0-3])$/);
    const taken = await srv.api('POST', svcs, svc('taken', { clusterIP: '10.96.0.14' }));
    expect(taken.status).toBe(422);
    expect(causes(taken)).toEqual(['spec.clusterIP: Invalid value: "10.96.0.14": provided IP is already allocated']);
    const outside = await srv.api('POST', svcs, svc('outside', { clusterIP: '10.0.0.5' }));
    expect(causes(outside)).toEqual([
      'spec.clusterIP: Invalid value: "10.0.0.5": provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/28',
    ]);
    expect((await srv.api('GET', `${svcs}/taken`)).status).toBe(404);
  });

  it('gives headless and ExternalName services no IP, and keeps IPs immutable', async () => {
    const headless = await srv.api('POST', svcs, svc('headless', { clusterIP: 'None' }));
    expect(headless.body.spec.clusterIP).toBe('None');
    const external = await srv.api('POST', svcs, {
      metadata: { name: 'external' },
      spec: { type: 'ExternalName', externalName: 'example.com' },
    });
    expect(external.status, external.text).toBe(201);
    expect(external.body.spec.clusterIP ?? '').toBe('');
    const auto = await srv.api('GET', `${svcs}/auto`);
    // Upstream 1.33 patchAllocatedValues: a replace that omits the cluster IPs keeps them.
    const { clusterIP: _ip, clusterIPs: _ips, ...withoutIPs } = auto.body.spec;
    const dropped = await srv.api('PUT', `${svcs}/auto`, { ...auto.body, spec: withoutIPs });
    expect(dropped.status, dropped.text).toBe(200);
    expect(dropped.body.spec.clusterIPs).toEqual([auto.body.spec.clusterIP]);
    auto.body.metadata.resourceVersion = dropped.body.metadata.resourceVersion;
    const kept = await srv.api('PUT', `${svcs}/auto`, auto.body);
    expect(kept.body.spec.clusterIP).toBe(auto.body.spec.clusterIP);
    const otherIp = auto.body.spec.clusterIP === '10.96.0.13' ? '10.96.0.12' : '10.96.0.13';
    const changed = await srv.api(
      'PATCH',
      `${svcs}/auto`,
      { spec: { clusterIP: otherIp } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(changed.status).toBe(422);
    expect(causes(changed)).toEqual([
      `spec.clusterIPs[0]: Invalid value: []string{"${otherIp}"}: may not change once set`,
    ]);
  });

  it('releases the IP and deletes the Endpoints when a Service is deleted; a full range is 500', async () => {
    await srv.api('POST', '/api/v1/namespaces/default/endpoints', { metadata: { name: 'fixed' }, subsets: [] });
    const del = await srv.api('DELETE', `${svcs}/fixed`);
    expect(del.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'fixed', kind: 'services' } });
    expect((await srv.api('GET', '/api/v1/namespaces/default/endpoints/fixed')).status).toBe(404);
    const reuse = await srv.api('POST', svcs, svc('reuse', { clusterIP: '10.96.0.14' }));
    expect(reuse.status).toBe(201);
    const results = [];
    for (let i = 0; i < 14; i++) results.push((await srv.api('POST', svcs, svc(`fill-${i}`))).status);
    const full = await srv.api('POST', svcs, svc('one-too-many'));
    expect(full.status).toBe(500);
    expect(full.body.message).toBe('Internal error occurred: failed to allocate a serviceIP: range is full');
    for (let i = 0; i < 14; i++) await srv.api('DELETE', `${svcs}/fill-${i}`);
  });
});

describe('node ports', () => {
  it('allocates node ports for NodePort and LoadBalancer, a health check port for Local traffic', async () => {
    const np = await srv.api(
      'POST',
      svcs,
      svc('np', {
        type: 'NodePort',
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443, nodePort: 30009 },
        ],
      }),
    );
    expect(np.status, np.text).toBe(201);
    const [a, b] = np.body.spec.ports.map((p: any) => p.nodePort);
    expect(a).toBeGreaterThanOrEqual(30000);
    expect(a).toBeLessThan(30009);
    expect(b).toBe(30009);
    const lb = await srv.api('POST', svcs, svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    expect(lb.body.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    const taken = await srv.api(
      'POST',
      svcs,
      svc('np-taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30009 }] }),
    );
    expect(causes(taken)).toEqual(['spec.ports[0].nodePort: Invalid value: 30009: provided port is already allocated']);
    const outside = await srv.api(
      'POST',
      svcs,
      svc('np-out', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }),
    );
    expect(causes(outside)).toEqual([
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-30009',
    ]);
    const clusterIp = await srv.api('POST', svcs, svc('cip-np', { ports: [{ port: 80, nodePort: 30001 }] }));
    expect(clusterIp.status).toBe(422);
  });

  it('keeps node ports across updates and releases them when the type no longer needs them', async () => {
    const np = await srv.api('GET', `${svcs}/np`);
    const relabel = await srv.api(
      'PATCH',
      `${svcs}/np`,
      { metadata: { labels: { x: 'y' } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(relabel.body.spec.ports.map((p: any) => p.nodePort)).toEqual(np.body.spec.ports.map((p: any) => p.nodePort));
    const toClusterIp = await srv.api('PUT', `${svcs}/np`, {
      ...relabel.body,
      spec: {
        ...relabel.body.spec,
        type: 'ClusterIP',
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443 },
        ],
      },
    });
    expect(toClusterIp.status, toClusterIp.text).toBe(200);
    const again = await srv.api(
      'POST',
      svcs,
      svc('np-again', { type: 'NodePort', ports: [{ port: 80, nodePort: 30009 }] }),
    );
    expect(again.status, again.text).toBe(201);
  });

  it('gives concurrent creates distinct IPs', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => srv.api('POST', svcs, svc(`burst-${i}`))));
    const ips = created.filter((r) => r.status === 201).map((r) => r.body.spec.clusterIP);
    expect(new Set(ips).size).toBe(ips.length);
  });
});
