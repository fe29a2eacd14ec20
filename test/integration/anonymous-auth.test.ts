/**
 * --anonymous-auth=true as upstream: a request without credentials is system:anonymous in
 * system:unauthenticated and RBAC decides (the bootstrap policy gives it nothing beyond health
 * and version); a wrong credential is still 401. Without the flag (the default here) a request
 * without credentials is 401 (see api-surface.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ anonymousAuth: true });
});
afterAll(() => srv?.stop());

const anonymous = (path: string) => srv.api('GET', path, undefined, { authorization: '' });

describe('anonymous requests', () => {
  it('are system:anonymous, denied by RBAC unless a binding allows them', async () => {
    const denied = await anonymous('/api/v1/namespaces');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    expect((await anonymous('/api')).status).toBe(403); // discovery is for authenticated users
    expect((await anonymous('/healthz')).status).toBe(200);
    expect((await anonymous('/version')).status).toBe(200);
    const binding = {
      metadata: { name: 'anonymous-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' }],
    };
    expect((await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding)).status).toBe(201);
    await expect.poll(async () => (await anonymous('/api/v1/namespaces')).status).toBe(200);
  });

  it('a wrong token is still 401', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces', undefined, { authorization: 'Bearer wrong' });
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('Unauthorized');
  });
});
