/**
 * Fields that strategic merge replaces rather than merges, as upstream's struct tags say: a
 * PodDisruptionBudget's `spec.selector` (`patchStrategy:"replace"`), an EndpointSlice's
 * `endpoints[].addresses` and a CSIDriver's `spec.volumeLifecycleModes` (`+listType=set` without
 * a patch strategy). Server-side apply still treats the two lists as sets; OpenAPI shows the
 * replace strategy kubectl's client-side apply reads.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const NS = 'smp-replace';

async function created(path: string, body: object): Promise<void> {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  const res = await srv.api('POST', path, body);
  expect(res.status, res.text).toBe(201);
}

describe('strategic merge patch: replaced fields', () => {
  it("replaces a PodDisruptionBudget's selector whole", async () => {
    const path = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
    await created(path, {
      metadata: { name: 'pdb' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'a', tier: 'web' } } },
    });
    const res = await srv.api(
      'PATCH',
      `${path}/pdb`,
      { spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['b'] }] } } },
      SMP,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.spec.selector).toEqual({ matchExpressions: [{ key: 'app', operator: 'In', values: ['b'] }] });
    // A merge patch still merges into it, as upstream's JSON merge patch does.
    const merged = await srv.api(
      'PATCH',
      `${path}/pdb`,
      { spec: { selector: { matchLabels: { app: 'b' } } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(merged.body.spec.selector).toEqual({
      matchLabels: { app: 'b' },
      matchExpressions: [{ key: 'app', operator: 'In', values: ['b'] }],
    });
  });

  it("replaces an EndpointSlice endpoint's addresses, which apply merges as a set", async () => {
    const path = `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`;
    await created(path, {
      metadata: { name: 'eps' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }],
    });
    const res = await srv.api('PATCH', `${path}/eps`, { endpoints: [{ addresses: ['10.0.0.3'] }] }, SMP);
    expect(res.status, res.text).toBe(200);
    expect(res.body.endpoints).toEqual([{ addresses: ['10.0.0.3'] }]);
  });

  it("replaces a CSIDriver's volumeLifecycleModes (then immutable) and merges them as a set under server-side apply", async () => {
    const path = '/apis/storage.k8s.io/v1/csidrivers';
    const res0 = await srv.api('POST', path, {
      metadata: { name: 'smp.csi.example.com' },
      spec: { volumeLifecycleModes: ['Persistent', 'Ephemeral'] },
    });
    expect(res0.status, res0.text).toBe(201);
    // Replaced, the list changes, which the immutability rule refuses (merged, it would not change).
    const res = await srv.api(
      'PATCH',
      `${path}/smp.csi.example.com`,
      { spec: { volumeLifecycleModes: ['Ephemeral'] } },
      SMP,
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.details.causes[0].message).toContain('{"Ephemeral"}: field is immutable');
    // Applied by another manager, the set keeps both values, so nothing changes.
    const applied = await srv.api(
      'PATCH',
      `${path}/smp.csi.example.com?fieldManager=other&force=true`,
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'smp.csi.example.com' },
        spec: { volumeLifecycleModes: ['Persistent'] },
      },
      { 'content-type': 'application/apply-patch+yaml' },
    );
    expect(applied.status, applied.text).toBe(200);
    expect([...applied.body.spec.volumeLifecycleModes].sort()).toEqual(['Ephemeral', 'Persistent']);
  });

  it('publishes the replace strategy of the selector in OpenAPI v2', async () => {
    const res = await srv.api('GET', '/openapi/v2');
    const pdb = res.body.definitions['io.k8s.api.policy.v1.PodDisruptionBudget'];
    expect(pdb.properties.spec.properties.selector['x-kubernetes-patch-strategy']).toBe('replace');
  });
});
