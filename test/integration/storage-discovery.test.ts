/**
 * The storage.k8s.io and discovery.k8s.io kinds as clients see them: StorageClasses and
 * VolumeAttachments written at each version they are served at (storage.k8s.io v1 and
 * v1beta1, the spec's storage.ck.io) read back the same at every other; each version's
 * defaults; `kubectl get` columns; CSIDriver defaults and generation; EndpointSlice port
 * defaults, generation and the drop of v1's unwritable fields.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const MERGE = { 'content-type': 'application/merge-patch+json' };
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

const SC_VERSIONS = ['storage.k8s.io/v1', 'storage.k8s.io/v1beta1', 'storage.ck.io/v1', 'storage.ck.io/v1beta1'];
const VA_VERSIONS = ['storage.k8s.io/v1', 'storage.k8s.io/v1beta1', 'storage.ck.io/v1beta1'];
const pairs = (versions: string[]) => versions.flatMap((a) => versions.map((b) => [a, b] as const));
const slug = (v: string) => v.replace(/[^a-z0-9]/g, '');

/** What two reads of one object share whatever the version: all but apiVersion, selfLink and managedFields. */
function comparable(obj: any): any {
  const { apiVersion: _v, metadata, ...rest } = obj;
  const { selfLink: _s, managedFields: _m, ...meta } = metadata;
  return { ...rest, metadata: meta };
}

async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any> {
  const res = await srv.api(method, path, body, headers);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

describe('StorageClass at every version', () => {
  it.each(pairs(SC_VERSIONS))('a write at %s reads back at %s', async (from, to) => {
    const name = `sc-${slug(from)}-${slug(to)}`;
    const created = await call('POST', `/apis/${from}/storageclasses`, {
      metadata: { name },
      provisioner: 'example.com/nfs',
      parameters: { server: 'nfs' },
      allowVolumeExpansion: true,
    });
    expect(created).toMatchObject({ apiVersion: from, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    const read = await call('GET', `/apis/${to}/storageclasses/${name}`);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(comparable(created));
    // An update at the second version is seen at the first.
    await call('PATCH', `/apis/${to}/storageclasses/${name}`, { mountOptions: ['ro'] }, MERGE);
    expect((await call('GET', `/apis/${from}/storageclasses/${name}`)).mountOptions).toEqual(['ro']);
  });

  it('lists the same objects under every version, the default class marked in the table', async () => {
    await call('POST', '/apis/storage.ck.io/v1beta1/storageclasses', {
      metadata: { name: 'sc-default', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/ebs',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    for (const v of SC_VERSIONS) {
      const list = await call('GET', `/apis/${v}/storageclasses`);
      expect(list.items.map((i: any) => i.metadata.name)).toContain('sc-default');
    }
    const table = await call('GET', '/apis/storage.k8s.io/v1/storageclasses/sc-default', undefined, TABLE);
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Provisioner',
      'ReclaimPolicy',
      'VolumeBindingMode',
      'AllowVolumeExpansion',
      'Age',
    ]);
    expect(table.rows[0].cells.slice(0, 5)).toEqual([
      'sc-default (default)',
      'example.com/ebs',
      'Delete',
      'WaitForFirstConsumer',
      false,
    ]);
  });

  it('answers to its short name in discovery', async () => {
    const list = await call('GET', '/apis/storage.k8s.io/v1');
    const sc = list.resources.find((r: any) => r.name === 'storageclasses');
    expect(sc).toMatchObject({ kind: 'StorageClass', namespaced: false, shortNames: ['sc'] });
    const beta = await call('GET', '/apis/storage.ck.io/v1beta1');
    expect(beta.resources.map((r: any) => r.name).sort()).toEqual([
      'storageclasses',
      'volumeattachments',
      'volumeattachments/status',
    ]);
  });
});

describe('VolumeAttachment at every version', () => {
  it.each(pairs(VA_VERSIONS))('a write at %s reads back at %s, status included', async (from, to) => {
    const name = `va-${slug(from)}-${slug(to)}`;
    const created = await call('POST', `/apis/${from}/volumeattachments`, {
      metadata: { name },
      spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
      status: { attached: true },
    });
    expect(created.status).toEqual({ attached: false });
    await call('PATCH', `/apis/${from}/volumeattachments/${name}/status`, { status: { attached: true } }, MERGE);
    const read = await call('GET', `/apis/${to}/volumeattachments/${name}`);
    expect(read).toMatchObject({ apiVersion: to, status: { attached: true }, spec: { nodeName: 'node-1' } });
    const back = await call('GET', `/apis/${from}/volumeattachments/${name}`);
    expect(comparable(read)).toEqual(comparable(back));
  });

  it('keeps v1beta1 writes free of v1’s stricter names, and prints its columns', async () => {
    await call('POST', '/apis/storage.k8s.io/v1beta1/volumeattachments', {
      metadata: { name: 'va-legacy' },
      spec: { attacher: 'Legacy_Attacher', nodeName: 'node-1', source: { persistentVolumeName: 'PV_1' } },
    });
    const table = await call('GET', '/apis/storage.k8s.io/v1/volumeattachments/va-legacy', undefined, TABLE);
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Attacher',
      'PV',
      'Node',
      'Attached',
      'Age',
    ]);
    expect(table.rows[0].cells.slice(0, 5)).toEqual(['va-legacy', 'Legacy_Attacher', 'PV_1', 'node-1', false]);
  });
});

describe('CSIDriver and CSINode', () => {
  it('defaults a CSIDriver as upstream, and counts spec changes in generation', async () => {
    const created = await call('POST', '/apis/storage.k8s.io/v1/csidrivers', { metadata: { name: 'd.example.com' } });
    expect(created.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
    const gated = await call(
      'PATCH',
      '/apis/storage.k8s.io/v1/csidrivers/d.example.com',
      { spec: { podInfoOnMount: true, nodeAllocatableUpdatePeriodSeconds: 60 } },
      MERGE,
    );
    expect(gated.spec.podInfoOnMount).toBe(true);
    expect(gated.spec).not.toHaveProperty('nodeAllocatableUpdatePeriodSeconds');
    expect(gated.metadata.generation).toBe(1);
    const table = await call('GET', '/apis/storage.k8s.io/v1/csidrivers/d.example.com', undefined, TABLE);
    expect(table.rows[0].cells.slice(0, 7)).toEqual([
      'd.example.com',
      true,
      true,
      false,
      '<unset>',
      false,
      'Persistent',
    ]);
  });

  it('prints the number of drivers of a CSINode', async () => {
    await call('POST', '/apis/storage.k8s.io/v1/csinodes', {
      metadata: { name: 'node-a' },
      spec: {
        drivers: [
          { name: 'a.example.com', nodeID: 'a' },
          { name: 'b.example.com', nodeID: 'b' },
        ],
      },
    });
    const table = await call('GET', '/apis/storage.k8s.io/v1/csinodes/node-a', undefined, TABLE);
    expect(table.rows[0].cells.slice(0, 2)).toEqual(['node-a', 2]);
  });
});

describe('EndpointSlice', () => {
  const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';

  it('defaults ports, drops deprecatedTopology, counts generation and prints its columns', async () => {
    const created = await call('POST', SLICES, {
      metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((a) => ({
        addresses: [a],
        deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' },
      })),
      ports: [{ port: 80 }],
    });
    expect(created.ports).toEqual([{ name: '', protocol: 'TCP', port: 80 }]);
    expect(created.endpoints[0]).not.toHaveProperty('deprecatedTopology');
    expect(created.metadata.generation).toBe(1);
    const relabelled = await call('PATCH', `${SLICES}/web-abc`, { metadata: { labels: { extra: 'x' } } }, MERGE);
    expect(relabelled.metadata.generation).toBe(2);
    const annotated = await call('PATCH', `${SLICES}/web-abc`, { metadata: { annotations: { a: 'b' } } }, MERGE);
    expect(annotated.metadata.generation).toBe(2);
    const table = await call('GET', `${SLICES}/web-abc`, undefined, TABLE);
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'AddressType',
      'Ports',
      'Endpoints',
      'Age',
    ]);
    expect(table.rows[0].cells.slice(0, 4)).toEqual([
      'web-abc',
      'IPv4',
      '80',
      '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...',
    ]);
  });
});
