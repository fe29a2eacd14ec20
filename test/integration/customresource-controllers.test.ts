/**
 * What the cluster's own machinery does for custom resources, as for built-in ones: the
 * garbage collector follows their ownerReferences (both ways), ResourceQuota counts them as
 * `count/<plural>.<group>`, RBAC grants them by group and resource, and a definition whose
 * schema default the schema refuses is itself refused.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { crd, establish } from '../helpers/crds.js';

const srv = useTestServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const PARTS = '/apis/ctl.example.com/v1/namespaces/default/parts';
const part = (name: string) => ({ apiVersion: 'ctl.example.com/v1', kind: 'Part', metadata: { name } });

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('custom resources and the controllers', () => {
  it('garbage-collects a ConfigMap owned by a custom object, and a custom object owned by a ConfigMap', async () => {
    await establish(srv, crd({ group: 'ctl.example.com', plural: 'parts', kind: 'Part' }));
    const owner = (await srv.api('POST', PARTS, part('owner'))).body;
    const ref = (o: any, kind: string, apiVersion: string) => [
      { apiVersion, kind, name: o.metadata.name, uid: o.metadata.uid },
    ];
    const cm = await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'owned-by-part', ownerReferences: ref(owner, 'Part', 'ctl.example.com/v1') },
    });
    expect(cm.status).toBe(201);
    await srv.api('DELETE', `${PARTS}/owner`);
    await until(
      'the ConfigMap to be collected',
      async () => (await srv.api('GET', '/api/v1/namespaces/default/configmaps/owned-by-part')).status === 404,
    );

    const cmOwner = (await srv.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm-owner' } }))
      .body;
    const dependent = await srv.api('POST', PARTS, {
      ...part('owned-by-cm'),
      metadata: { name: 'owned-by-cm', ownerReferences: ref(cmOwner, 'ConfigMap', 'v1') },
    });
    expect(dependent.status).toBe(201);
    await srv.api('DELETE', '/api/v1/namespaces/default/configmaps/cm-owner');
    await until(
      'the custom object to be collected',
      async () => (await srv.api('GET', `${PARTS}/owned-by-cm`)).status === 404,
    );
  });

  it('counts custom objects in a ResourceQuota as count/<plural>.<group>', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'quoted' } });
    const path = '/apis/ctl.example.com/v1/namespaces/quoted/parts';
    await srv.api('POST', '/api/v1/namespaces/quoted/resourcequotas', {
      metadata: { name: 'q' },
      spec: { hard: { 'count/parts.ctl.example.com': '1' } },
    });
    await until('the quota to be computed', async () =>
      Boolean((await srv.api('GET', '/api/v1/namespaces/quoted/resourcequotas/q')).body.status?.used),
    );
    expect((await srv.api('POST', path, part('p1'))).status).toBe(201);
    const refused = await srv.api('POST', path, part('p2'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'parts.ctl.example.com "p2" is forbidden: exceeded quota: q, requested: count/parts.ctl.example.com=1, used: count/parts.ctl.example.com=1, limited: count/parts.ctl.example.com=1',
    );
    await srv.api('DELETE', `${path}/p1`);
    await until(
      'the quota to free the deleted object',
      async () => (await srv.api('POST', path, part('p2'))).status === 201,
    );
  });

  it('authorizes custom resources by group and resource through RBAC', async () => {
    const bob = { authorization: 'Bearer other-token' };
    expect((await srv.api('GET', PARTS, undefined, bob)).status).toBe(403);
    await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      metadata: { name: 'parts-reader' },
      rules: [{ apiGroups: ['ctl.example.com'], resources: ['parts'], verbs: ['get', 'list'] }],
    });
    await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      metadata: { name: 'bob-reads-parts' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'parts-reader' },
      subjects: [{ kind: 'User', name: 'bob' }],
    });
    await until('bob to read parts', async () => (await srv.api('GET', PARTS, undefined, bob)).status === 200);
    expect((await srv.api('POST', PARTS, part('by-bob'), bob)).status).toBe(403);
  });

  it('refuses a definition whose default its own schema refuses', async () => {
    const def = crd({
      group: 'ctl.example.com',
      plural: 'knobs',
      kind: 'Knob',
      schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { level: { type: 'integer', maximum: 5, default: 9 } } } },
      },
    });
    const res = await srv.api('POST', CRDS, def);
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toContainEqual(
      expect.objectContaining({
        field: 'spec.validation.openAPIV3Schema.properties[spec].properties[level].default',
        message: expect.stringContaining('should be less than or equal to 5'),
      }),
    );
  });
});
