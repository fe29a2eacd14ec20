/**
 * Aggregated discovery on /api and /apis as kubectl 1.30+ asks for it, with ETags, and the
 * classic documents for every other Accept.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('aggregated discovery', () => {
  it('/api answers the core group with every resource and subresource', async () => {
    const res = await srv.api('GET', '/api', undefined, { accept: KUBECTL_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(res.body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    expect(res.body.items).toHaveLength(1);
    const [core] = res.body.items;
    expect(core.metadata.name).toBeUndefined();
    expect(core.versions.map((v: any) => v.version)).toEqual(['v1']);
    const classic = (await srv.api('GET', '/api/v1')).body.resources.filter((r: any) => !r.name.includes('/'));
    const pods = core.versions[0].resources.find((r: any) => r.resource === 'pods');
    expect(core.versions[0].resources.map((r: any) => r.resource).sort()).toEqual(
      classic.map((r: any) => r.name).sort(),
    );
    expect(pods).toMatchObject({
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      shortNames: ['po'],
      categories: ['all'],
      subresources: expect.arrayContaining([
        {
          subresource: 'status',
          responseKind: { group: '', version: 'v1', kind: 'Pod' },
          verbs: ['get', 'patch', 'update'],
        },
        { subresource: 'binding', responseKind: { group: '', version: 'v1', kind: 'Binding' }, verbs: ['create'] },
      ]),
    });
    const rc = core.versions[0].resources.find((r: any) => r.resource === 'replicationcontrollers');
    expect(rc.subresources).toContainEqual(
      expect.objectContaining({
        subresource: 'scale',
        responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      }),
    );
    expect(core.versions[0].resources.find((r: any) => r.resource === 'nodes').scope).toBe('Cluster');
  });

  it('/apis lists the named groups that serve something, v2beta1 and our group name too', async () => {
    const res = await srv.api('GET', '/apis', undefined, {
      accept: 'application/json;g=apidiscovery.ck.io;v=v2beta1;as=APIGroupDiscoveryList',
    });
    expect(res.status).toBe(200);
    expect(res.body.apiVersion).toBe('apidiscovery.ck.io/v2beta1');
    const classic = (await srv.api('GET', '/apis')).body.groups.map((g: any) => g.name);
    expect(res.body.items.map((g: any) => g.metadata.name)).toEqual(classic);
    const security = res.body.items.find((g: any) => g.metadata.name === 'security.platform.io');
    expect(security.versions[0].resources[0]).toMatchObject({
      resource: 'securitycontextconstraints',
      scope: 'Cluster',
    });
    const rbac = res.body.items.find((g: any) => g.metadata.name === 'rbac.authorization.k8s.io');
    expect(rbac.versions[0].resources.map((r: any) => r.resource)).toEqual([
      'clusterrolebindings',
      'clusterroles',
      'rolebindings',
      'roles',
    ]);
  });

  it('answers 304 to a matching If-None-Match, and the classic documents to other Accepts', async () => {
    const first = await srv.api('GET', '/apis', undefined, { accept: KUBECTL_ACCEPT });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9A-F]{64}"$/);
    const again = await srv.api('GET', '/apis', undefined, { accept: KUBECTL_ACCEPT, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await srv.api('GET', '/api')).body.kind).toBe('APIVersions');
    expect(
      (
        await srv.api('GET', '/apis', undefined, {
          accept: 'application/json;g=apidiscovery.k8s.io;v=v9;as=APIGroupDiscoveryList,application/json',
        })
      ).body.kind,
    ).toBe('APIGroupList');
  });
});
