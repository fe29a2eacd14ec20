/**
 * ServiceAccount and DefaultTolerationSeconds admission as a user sees them: a new pod runs as
 * `default` (in a namespace created a moment ago too), a pod naming a missing account is
 * refused with upstream's message, the account's image pull secrets are copied, and every pod
 * tolerates not-ready and unreachable nodes for 300 s unless it says otherwise, also after a
 * PUT that leaves the tolerations out.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const pod = (name: string, spec: object = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

describe('ServiceAccount admission', () => {
  it('gives a pod in a brand-new namespace the default account', async () => {
    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'sa-adm' } })).status).toBe(201);
    const res = await srv.api('POST', '/api/v1/namespaces/sa-adm/pods', pod('p'));
    expect(res.status).toBe(201);
    expect(res.body.spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
    const listed = await srv.api(
      'GET',
      '/api/v1/namespaces/sa-adm/pods?fieldSelector=spec.serviceAccountName%3Ddefault',
    );
    expect(listed.body.items.map((i: any) => i.metadata.name)).toEqual(['p']);
  });

  it('refuses a pod naming an account that does not exist', async () => {
    const res = await srv.api(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('ghost', { serviceAccountName: 'nobody' }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods "ghost" is forbidden: error looking up service account default/nobody: serviceaccount "nobody" not found',
    });
  });

  it("copies the account's image pull secrets to a pod without its own", async () => {
    await srv.api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      metadata: { name: 'puller' },
      imagePullSecrets: [{ name: 'regcred' }],
    });
    const res = await srv.api(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('pulls', { serviceAccountName: 'puller' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    const own = await srv.api(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('own', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] }),
    );
    expect(own.body.spec.imagePullSecrets).toEqual([{ name: 'mine' }]);
  });
});

describe('DefaultTolerationSeconds admission', () => {
  it('adds the not-ready and unreachable tolerations, keeping the pod own', async () => {
    const res = await srv.api(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('tol', { tolerations: [{ key: 'gpu', operator: 'Exists' }] }),
    );
    expect(res.body.spec.tolerations).toEqual([{ key: 'gpu', operator: 'Exists' }, ...DEFAULT_TOLERATIONS]);
  });

  it('adds nothing for a pod that tolerates every NoExecute taint', async () => {
    const res = await srv.api(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('all', { tolerations: [{ operator: 'Exists', effect: 'NoExecute' }] }),
    );
    expect(res.body.spec.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute' }]);
  });

  it('adds them again on a PUT that leaves them out, so the update is valid', async () => {
    const created = (await srv.api('POST', '/api/v1/namespaces/default/pods', pod('put'))).body;
    const { tolerations: _t, ...spec } = created.spec;
    const body = { ...created, spec: { ...spec, containers: [{ ...spec.containers[0], image: 'nginx:2' }] } };
    const res = await srv.api('PUT', '/api/v1/namespaces/default/pods/put', body);
    expect(res.status).toBe(200);
    expect(res.body.spec.tolerations).toEqual(DEFAULT_TOLERATIONS);
    expect(res.body.spec.containers[0].image).toBe('nginx:2');
  });
});
