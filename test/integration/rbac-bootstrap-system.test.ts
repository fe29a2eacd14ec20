/**
 * Upstream 1.33's whole bootstrap policy over HTTP: `kubectl get clusterroles` lists the system
 * and controller roles, the namespaced roles exist in kube-system and kube-public, a service
 * account named as a controller (kube-system/deployment-controller) holds that controller's
 * powers through its bootstrap binding, and reconciliation at start is idempotent: it restores
 * what a role lost, leaves a role annotated autoupdate=false as the user left it, and rewrites
 * nothing when nothing changed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, writeKubeconfig, type TestServer, TEST_TOKEN } from '../helpers/in-process.js';
import { run } from '../helpers/run.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
let dir: string;
let srv: TestServer;

const start = () =>
  startTestServer({ tokenAuthFile: join(dir, 'tokens.csv'), storageBackend: 'embedded', dataDir: join(dir, 'data') });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-rbac-bootstrap-'));
  await writeFile(join(dir, 'tokens.csv'), `${TEST_TOKEN},admin,uid-admin,"system:masters"\n`);
  srv = await start();
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** name → resourceVersion of every bootstrap object of `plural` (cluster-wide list). */
async function versions(plural: string): Promise<Map<string, string>> {
  const res = await srv.api('GET', `${RBAC}/${plural}?labelSelector=kubernetes.io/bootstrapping%3Drbac-defaults`);
  expect(res.status).toBe(200);
  return new Map(
    res.body.items.map((o: any) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]),
  );
}

describe('the RBAC bootstrap policy of upstream 1.33', () => {
  it('lists the system and controller roles (kubectl get clusterroles)', async () => {
    const kubeconfig = await writeKubeconfig(srv, 'bootstrap');
    const res = await run('kubectl', [`--kubeconfig=${kubeconfig}`, 'get', 'clusterroles', '-o', 'name']);
    expect(res.stderr).toBe('');
    const names = res.stdout.trim().split('\n');
    for (const name of [
      'system:node',
      'system:kube-scheduler',
      'system:kube-controller-manager',
      'system:auth-delegator',
      'system:certificates.k8s.io:kube-apiserver-client-approver',
      'system:controller:deployment-controller',
      'system:controller:generic-garbage-collector',
    ])
      expect(names).toContain(`clusterrole.rbac.authorization.k8s.io/${name}`);
    expect(names.filter((n) => n.includes('/system:controller:'))).toHaveLength(35);
    const bindings = await run('kubectl', [`--kubeconfig=${kubeconfig}`, 'get', 'clusterrolebindings', '-o', 'name']);
    expect(bindings.stdout).toContain('clusterrolebinding.rbac.authorization.k8s.io/system:node-proxier');
  });

  it('creates the namespaced roles and bindings in kube-system and kube-public', async () => {
    const reader = await srv.api(
      'GET',
      `${RBAC}/namespaces/kube-system/roles/extension-apiserver-authentication-reader`,
    );
    expect(reader.status).toBe(200);
    expect(reader.body.rules[0]).toMatchObject({
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['extension-apiserver-authentication'],
      verbs: ['get', 'list', 'watch'],
    });
    expect(
      (await srv.api('GET', `${RBAC}/namespaces/kube-public/rolebindings/system:controller:bootstrap-signer`)).status,
    ).toBe(200);
    expect([...(await versions('roles')).keys()]).toHaveLength(7);
    expect([...(await versions('rolebindings')).keys()]).toHaveLength(7);
    expect((await srv.api('GET', '/api/v1/namespaces/kube-node-lease')).status).toBe(200);
  });

  it('lets the deployment controller service account list deployments cluster-wide', async () => {
    const sa = await srv.api('POST', '/api/v1/namespaces/kube-system/serviceaccounts', {
      metadata: { name: 'deployment-controller' },
    });
    expect([201, 409]).toContain(sa.status);
    const tokenReq = await srv.api(
      'POST',
      '/api/v1/namespaces/kube-system/serviceaccounts/deployment-controller/token',
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {},
      },
    );
    expect(tokenReq.status).toBe(201);
    const as = { authorization: `Bearer ${tokenReq.body.status.token}` };
    const review = async (resourceAttributes: Record<string, string>) => {
      const res = await srv.api(
        'POST',
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        { spec: { resourceAttributes } },
        as,
      );
      expect(res.status).toBe(201);
      return res.body.status.allowed === true;
    };
    expect(await review({ verb: 'list', group: 'apps', resource: 'deployments' })).toBe(true);
    expect(await review({ verb: 'update', group: 'apps', resource: 'deployments', subresource: 'status' })).toBe(true);
    expect(await review({ verb: 'create', group: 'apps', resource: 'replicasets', namespace: 'default' })).toBe(true);
    expect(await review({ verb: 'delete', group: 'apps', resource: 'deployments' })).toBe(false);
    expect(await review({ verb: 'get', group: '', resource: 'secrets' })).toBe(false);
    expect((await srv.api('GET', '/apis/apps/v1/deployments', undefined, as)).status).toBe(200);
    expect((await srv.api('GET', '/api/v1/secrets', undefined, as)).status).toBe(403);
  });

  it('reconciles at start: idempotent, restores lost rules, leaves autoupdate=false roles alone', async () => {
    const before = { roles: await versions('clusterroles'), bindings: await versions('clusterrolebindings') };
    const nsBefore = { roles: await versions('roles'), bindings: await versions('rolebindings') };
    // A role the user took over, and one that merely lost a rule.
    const pinned = (await srv.api('GET', `${RBAC}/clusterroles/system:kube-dns`)).body;
    pinned.metadata.annotations[AUTOUPDATE] = 'false';
    pinned.rules = [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }];
    expect((await srv.api('PUT', `${RBAC}/clusterroles/system:kube-dns`, pinned)).status).toBe(200);
    const trimmed = (await srv.api('GET', `${RBAC}/clusterroles/system:heapster`)).body;
    trimmed.rules = trimmed.rules.slice(0, 1);
    expect((await srv.api('PUT', `${RBAC}/clusterroles/system:heapster`, trimmed)).status).toBe(200);

    await srv.stop();
    srv = await start();
    const after = { roles: await versions('clusterroles'), bindings: await versions('clusterrolebindings') };
    const changed = [...after.roles].filter(([name, rv]) => before.roles.get(name) !== rv).map(([name]) => name);
    expect(changed.sort()).toEqual(['/system:heapster', '/system:kube-dns']);
    expect(after.bindings).toEqual(before.bindings);
    expect({ roles: await versions('roles'), bindings: await versions('rolebindings') }).toEqual(nsBefore);

    const dns = (await srv.api('GET', `${RBAC}/clusterroles/system:kube-dns`)).body;
    expect(dns.metadata.annotations[AUTOUPDATE]).toBe('false');
    expect(dns.rules).toEqual([{ apiGroups: [''], resources: ['services'], verbs: ['get'] }]);
    const heapster = (await srv.api('GET', `${RBAC}/clusterroles/system:heapster`)).body;
    expect(heapster.rules).toHaveLength(2);
    const heapsterRv = heapster.metadata.resourceVersion;

    // A second restart with nothing to do writes nothing.
    await srv.stop();
    srv = await start();
    const third = await versions('clusterroles');
    expect(third.get('/system:heapster')).toBe(heapsterRv);
    expect([...third].filter(([name, rv]) => after.roles.get(name) !== rv)).toEqual([]);
  });
});
