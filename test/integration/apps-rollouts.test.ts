/**
 * Deployments and ReplicaSets beyond the table-driven suite: discovery (versions, short names,
 * categories, subresources and their kinds), each version's Scale view, the rollback
 * subresource, generation semantics (a Deployment's annotations count, a ReplicaSet's do not),
 * the ReplicaSet field selector and the Table columns.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const path = (version: string, plural: string, name = '') =>
  `/apis/${version}/namespaces/default/${plural}${name ? `/${name}` : ''}`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

const workload = (name: string, selector: object = { matchLabels: { app: name, tier: 'web' } }) => ({
  metadata: { name },
  spec: {
    replicas: 2,
    selector,
    template: {
      metadata: { labels: { app: name, tier: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1' },
          { name: 'side', image: 'busybox' },
        ],
      },
    },
  },
});

async function create(version: string, plural: string, body: object): Promise<void> {
  const res = await srv.api('POST', path(version, plural), body);
  expect(res.status, res.text).toBe(201);
}

describe('discovery', () => {
  const byName = async (gv: string) =>
    Object.fromEntries(
      ((await srv.api('GET', `/apis/${gv}`)).body.resources as { name: string }[]).map((r) => [r.name, r]),
    );

  it('serves deployments and replicasets at apps/v1 with short names, the all category and autoscaling/v1 Scale', async () => {
    const r = await byName('apps/v1');
    expect(r.deployments).toMatchObject({
      kind: 'Deployment',
      namespaced: true,
      shortNames: ['deploy'],
      categories: ['all'],
    });
    expect(r.replicasets).toMatchObject({ kind: 'ReplicaSet', shortNames: ['rs'], categories: ['all'] });
    expect(r['deployments/scale']).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(r['replicasets/scale']).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(r['deployments/status']).toMatchObject({ kind: 'Deployment', verbs: ['get', 'patch', 'update'] });
    expect(r).not.toHaveProperty('deployments/rollback');
  });

  it('serves the older versions with their own Scale kinds; rollback at apps/v1beta1 and extensions/v1beta1; no apps/v1beta1 replicasets', async () => {
    const beta2 = await byName('apps/v1beta2');
    expect(beta2['deployments/scale']).toMatchObject({ group: 'apps', version: 'v1beta2', kind: 'Scale' });
    expect(beta2['replicasets/scale']).toMatchObject({ group: 'apps', version: 'v1beta2', kind: 'Scale' });
    expect(beta2).not.toHaveProperty('deployments/rollback');
    const beta1 = await byName('apps/v1beta1');
    expect(Object.keys(beta1)).not.toContain('replicasets');
    expect(beta1['deployments/rollback']).toMatchObject({ kind: 'DeploymentRollback', verbs: ['create'] });
    expect(beta1['deployments/scale']).toMatchObject({ group: 'apps', version: 'v1beta1', kind: 'Scale' });
    const ext = await byName('extensions/v1beta1');
    expect(ext['deployments/rollback']).toMatchObject({ kind: 'DeploymentRollback', verbs: ['create'] });
    expect(ext['replicasets/scale']).toMatchObject({ group: 'extensions', version: 'v1beta1', kind: 'Scale' });
  });
});

describe('scale', () => {
  it('answers autoscaling/v1 Scale at apps/v1, with the selector string; writes set spec.replicas and bump generation', async () => {
    await create('apps/v1', 'deployments', workload('sc-v1'));
    const got = await srv.api('GET', `${path('apps/v1', 'deployments', 'sc-v1')}/scale`);
    expect(got.body).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'sc-v1', namespace: 'default' },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=sc-v1,tier=web' },
    });
    const put = await srv.api('PUT', `${path('apps/v1', 'deployments', 'sc-v1')}/scale`, {
      ...got.body,
      spec: { replicas: 5 },
    });
    expect(put.status, put.text).toBe(200);
    const obj = (await srv.api('GET', path('apps/v1', 'deployments', 'sc-v1'))).body;
    expect(obj).toMatchObject({ metadata: { generation: 2 }, spec: { replicas: 5 } });
    const negative = await srv.api(
      'PATCH',
      `${path('apps/v1', 'deployments', 'sc-v1')}/scale`,
      { spec: { replicas: -1 } },
      MERGE,
    );
    expect(negative.status).toBe(422);
    expect(negative.body.details.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.replicas',
      message: 'Invalid value: -1: must be greater than or equal to 0',
    });
  });

  it.each(['apps/v1beta2', 'apps/v1beta1', 'extensions/v1beta1'])(
    'answers the %s Scale with a selector map and targetSelector',
    async (version) => {
      const name = `sc-${version.replace(/\W/g, '')}`;
      await create(version, 'deployments', workload(name));
      const got = await srv.api('GET', `${path(version, 'deployments', name)}/scale`);
      expect(got.body).toMatchObject({
        apiVersion: version,
        kind: 'Scale',
        spec: { replicas: 2 },
        status: { replicas: 0, selector: { app: name, tier: 'web' }, targetSelector: `app=${name},tier=web` },
      });
      const patched = await srv.api(
        'PATCH',
        `${path(version, 'deployments', name)}/scale`,
        { spec: { replicas: 0 } },
        MERGE,
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({ apiVersion: version, kind: 'Scale' });
      expect(patched.body.spec.replicas ?? 0).toBe(0);
    },
  );

  it('leaves the map out when the selector has expressions', async () => {
    await create(
      'apps/v1',
      'replicasets',
      workload('sc-expr', {
        matchLabels: { app: 'sc-expr' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }],
      }),
    );
    const got = await srv.api('GET', `${path('extensions/v1beta1', 'replicasets', 'sc-expr')}/scale`);
    expect(got.body.status).toEqual({ replicas: 0, targetSelector: 'app=sc-expr,tier in (api,web)' });
    const v1 = await srv.api('GET', `${path('apps/v1', 'replicasets', 'sc-expr')}/scale`);
    expect(v1.body.status).toEqual({ replicas: 0, selector: 'app=sc-expr,tier in (api,web)' });
  });
});

describe('rollback', () => {
  it('sets spec.rollbackTo and merges updatedAnnotations without moving generation; 404 for a missing deployment', async () => {
    await create('apps/v1', 'deployments', workload('rb'));
    const res = await srv.api('POST', `${path('extensions/v1beta1', 'deployments', 'rb')}/rollback`, {
      apiVersion: 'extensions/v1beta1',
      kind: 'DeploymentRollback',
      name: 'rb',
      updatedAnnotations: { 'kubernetes.io/change-cause': 'undo' },
      rollbackTo: {},
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      message: 'rollback request for deployment "rb" succeeded',
      code: 200,
    });
    const ext = (await srv.api('GET', path('extensions/v1beta1', 'deployments', 'rb'))).body;
    expect(ext).toMatchObject({
      metadata: { generation: 1, annotations: { 'kubernetes.io/change-cause': 'undo' } },
      spec: { rollbackTo: {} },
    });
    const v1 = (await srv.api('GET', path('apps/v1', 'deployments', 'rb'))).body;
    expect(v1.metadata.annotations).toEqual({
      'kubernetes.io/change-cause': 'undo',
      'deprecated.deployment.rollback.to': '0',
    });
    const missing = await srv.api('POST', `${path('apps/v1beta1', 'deployments', 'rb')}/rollback`, { name: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ reason: 'NotFound', details: { name: 'nope', kind: 'deployments' } });
  });
});

describe('generation and status', () => {
  it("bumps a Deployment's generation on spec and annotation changes, not on labels or status", async () => {
    await create('apps/v1', 'deployments', workload('gen-d'));
    const item = path('apps/v1', 'deployments', 'gen-d');
    const gen = async () => (await srv.api('GET', item)).body.metadata.generation;
    await srv.api('PATCH', item, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(await gen()).toBe(1);
    await srv.api('PATCH', item, { metadata: { annotations: { a: 'b' } } }, MERGE);
    expect(await gen()).toBe(2);
    await srv.api('PATCH', item, { spec: { paused: true } }, MERGE);
    expect(await gen()).toBe(3);
    const st = await srv.api('PATCH', `${item}/status`, { status: { observedGeneration: 3, replicas: 2 } }, MERGE);
    expect(st.status, st.text).toBe(200);
    expect(await gen()).toBe(3);
    // The main resource keeps the stored status.
    const put = await srv.api('PATCH', item, { status: { replicas: 9 } }, MERGE);
    expect(put.body.status).toMatchObject({ observedGeneration: 3, replicas: 2 });
    // Through /status annotations change without a new generation (how the deployment
    // controller records the revision); spec and labels stay as stored.
    const revision = { 'deployment.kubernetes.io/revision': '1' };
    const viaStatus = await srv.api(
      'PATCH',
      `${item}/status`,
      { metadata: { annotations: revision, labels: { x: 'y' } }, spec: { paused: false } },
      MERGE,
    );
    expect(viaStatus.status, viaStatus.text).toBe(200);
    expect(viaStatus.body.metadata.annotations).toEqual({ a: 'b', ...revision });
    expect(viaStatus.body.metadata.labels).toEqual({ a: 'b' });
    expect(viaStatus.body.spec.paused).toBe(true);
    expect(await gen()).toBe(3);
  });

  it("bumps a ReplicaSet's generation on spec changes only; selects by status.replicas", async () => {
    await create('apps/v1', 'replicasets', workload('gen-rs'));
    const item = path('apps/v1', 'replicasets', 'gen-rs');
    await srv.api('PATCH', item, { metadata: { annotations: { a: 'b' } } }, MERGE);
    expect((await srv.api('GET', item)).body.metadata.generation).toBe(1);
    await srv.api('PATCH', item, { spec: { minReadySeconds: 3 } }, MERGE);
    expect((await srv.api('GET', item)).body.metadata.generation).toBe(2);
    await srv.api('PATCH', `${item}/status`, { status: { replicas: 2 } }, MERGE);
    const selected = await srv.api('GET', `${path('apps/v1', 'replicasets')}?fieldSelector=status.replicas%3D2`);
    expect(selected.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['gen-rs']);
  });
});

describe('Table', () => {
  it('prints Deployments as kubectl get deploy -o wide shows them', async () => {
    await create('apps/v1', 'deployments', workload('tbl-d'));
    const res = await srv.api('GET', path('apps/v1', 'deployments', 'tbl-d'), undefined, TABLE);
    expect(
      res.body.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}:${c.priority}`),
    ).toEqual(['Name:0', 'Ready:0', 'Up-to-date:0', 'Available:0', 'Age:0', 'Containers:1', 'Images:1', 'Selector:1']);
    expect(res.body.rows[0].cells).toEqual([
      'tbl-d',
      '0/2',
      0,
      0,
      expect.any(String),
      'web,side',
      'nginx:1,busybox',
      'app=tbl-d,tier=web',
    ]);
  });

  it('prints ReplicaSets as kubectl get rs -o wide shows them', async () => {
    await create('extensions/v1beta1', 'replicasets', workload('tbl-rs'));
    const res = await srv.api('GET', path('apps/v1beta2', 'replicasets', 'tbl-rs'), undefined, TABLE);
    expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(res.body.rows[0].cells).toEqual([
      'tbl-rs',
      2,
      0,
      0,
      expect.any(String),
      'web,side',
      'nginx:1,busybox',
      'app=tbl-rs,tier=web',
    ]);
  });
});
