/**
 * Lists written from each item's kept encoding (lists served from the watch cache): the same
 * items, selfLinks and list metadata as a freshly encoded list, and never a stale item after a
 * change, whatever resourceVersion the list asks for.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const cms = '/api/v1/namespaces/default/configmaps';

describe('list encoding', () => {
  it('answers compact JSON equal to the pretty (freshly encoded) list', async () => {
    for (const name of ['enc-a', 'enc-b']) await srv.api('POST', cms, { metadata: { name }, data: { v: name } });
    const compact = await srv.api('GET', `${cms}?resourceVersion=0`);
    const pretty = await srv.api('GET', `${cms}?resourceVersion=0&pretty=true`);
    expect(compact.status).toBe(200);
    expect(compact.text).not.toContain('\n');
    expect(compact.body).toEqual(pretty.body);
    expect(compact.body).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { selfLink: cms } });
    const item = compact.body.items.find((i: any) => i.metadata.name === 'enc-a');
    expect(item).toMatchObject({ metadata: { selfLink: `${cms}/enc-a` }, data: { v: 'enc-a' } });
    expect(item.kind).toBeUndefined();
    expect(item.apiVersion).toBeUndefined();
  });

  it('shows a change at once in a consistent list and in later lists from the cache, never the old encoding', async () => {
    await srv.api('POST', cms, { metadata: { name: 'enc-c' }, data: { v: '1' } });
    await srv.api('GET', `${cms}?resourceVersion=0`);
    for (let v = 2; v <= 4; v++) {
      const updated = await srv.api(
        'PATCH',
        `${cms}/enc-c`,
        { data: { v: String(v) } },
        { 'content-type': 'application/merge-patch+json' },
      );
      const consistent = await srv.api('GET', cms);
      const c = consistent.body.items.find((i: any) => i.metadata.name === 'enc-c');
      expect(c.data.v).toBe(String(v));
      expect(c.metadata.resourceVersion).toBe(updated.body.metadata.resourceVersion);
      const fromCache = await srv.api('GET', `${cms}?resourceVersion=${updated.body.metadata.resourceVersion}`);
      expect(fromCache.body.items.find((i: any) => i.metadata.name === 'enc-c').data.v).toBe(String(v));
    }
    await srv.api('DELETE', `${cms}/enc-c`);
    const after = await srv.api('GET', cms);
    expect(after.body.items.some((i: any) => i.metadata.name === 'enc-c')).toBe(false);
  });

  it('gives each path its own selfLinks when one stored object is served at two group versions', async () => {
    const body = { metadata: { name: 'enc-role' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
    expect((await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', body)).status).toBe(
      201,
    );
    for (let round = 0; round < 2; round++) {
      for (const root of ['/apis/rbac.authorization.k8s.io/v1', '/apis/rbac.authorization.ck.io/v1']) {
        const list = await srv.api('GET', `${root}/namespaces/default/roles?resourceVersion=0`);
        expect(list.status).toBe(200);
        const item = list.body.items.find((i: any) => i.metadata.name === 'enc-role');
        expect(item.metadata.selfLink).toBe(`${root}/namespaces/default/roles/enc-role`);
      }
    }
  });
});
