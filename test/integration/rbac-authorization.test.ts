/**
 * RBAC as a user meets it: a token without bindings is denied with upstream's message, a
 * RoleBinding (to a user, a group or a service account) grants what its role allows and only
 * in its namespace, the bootstrap roles exist (and come back after a restart when deleted),
 * aggregated ClusterRoles pick up the rules of new matching roles, and
 * --authorization-mode=AlwaysAllow lets every authenticated request through.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/types.js';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

const ADMIN = 'rbac-admin-token';
const ALICE = 'alice-token';
const BUILDER = 'builder-token';
const PROMETHEUS = 'prometheus-token';

let dir: string;
let srv: TestServer;

async function start(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  return startTestServer({
    tokenAuthFile: join(dir, 'tokens.csv'),
    storageBackend: 'embedded',
    dataDir: join(dir, 'data'),
    ...overrides,
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-rbac-'));
  await writeFile(
    join(dir, 'tokens.csv'),
    [
      `${ADMIN},admin,uid-admin,"system:masters"`,
      `${ALICE},alice,uid-alice,"developers"`,
      `${BUILDER},system:serviceaccount:default:builder,uid-builder`,
      `${PROMETHEUS},prometheus,uid-prometheus,"system:monitoring"`,
    ].join('\n') + '\n',
  );
  srv = await start();
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const admin = (method: string, path: string, body?: unknown) => srv.api(method, path, body, as(ADMIN));
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

function roleBinding(name: string, role: { kind: string; name: string }, subject: Record<string, string>) {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...role },
    subjects: [subject],
  };
}

describe('RBAC authorization', () => {
  it('denies a user without bindings with upstream message, reason and details', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/secrets', undefined, as(ALICE));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"',
      details: { kind: 'secrets' },
    });
    const node = await srv.api('DELETE', '/api/v1/namespaces/kube-public', undefined, as(ALICE));
    expect(node.body.message).toBe(
      'namespaces "kube-public" is forbidden: User "alice" cannot delete resource "namespaces" in API group "" in the namespace "kube-public"',
    );
    const scoped = await srv.api('GET', '/api/v1/nodes', undefined, as(ALICE));
    expect(scoped.body.message).toBe(
      'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const metrics = await srv.api('GET', '/metrics', undefined, as(ALICE));
    expect(metrics.status).toBe(403);
    expect(metrics.body.message).toBe('forbidden: User "alice" cannot get path "/metrics"');
  });

  it('lets every authenticated user read discovery and health (system:discovery, system:public-info-viewer)', async () => {
    for (const path of ['/api', '/apis', '/api/v1', '/version', '/openapi/v2', '/healthz']) {
      expect((await srv.api('GET', path, undefined, as(ALICE))).status, path).toBe(200);
    }
  });

  it('lets the system:monitoring group (the chart gives Prometheus) scrape /metrics and nothing else', async () => {
    expect((await srv.api('GET', '/metrics', undefined, as(PROMETHEUS))).status).toBe(200);
    expect((await srv.api('GET', '/readyz/etcd', undefined, as(PROMETHEUS))).status).toBe(200);
    expect((await srv.api('GET', '/api/v1/namespaces', undefined, as(PROMETHEUS))).status).toBe(403);
  });

  it('grants what a RoleBinding to a user allows, in its namespace only', async () => {
    expect(
      (
        await admin(
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          roleBinding(
            'alice-view',
            { kind: 'ClusterRole', name: 'view' },
            { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
          ),
        )
      ).status,
    ).toBe(201);
    await expect
      .poll(async () => (await srv.api('GET', '/api/v1/namespaces/default/configmaps', undefined, as(ALICE))).status)
      .toBe(200);
    expect((await srv.api('GET', '/api/v1/namespaces/default/secrets', undefined, as(ALICE))).status).toBe(403); // view has no secrets
    expect(
      (await srv.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } }, as(ALICE))).status,
    ).toBe(403);
    expect((await srv.api('GET', '/api/v1/namespaces/kube-system/configmaps', undefined, as(ALICE))).status).toBe(403);
  });

  it('grants through a group subject and a namespaced Role', async () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'secret-writer' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'get'] }],
    };
    expect((await admin('POST', `${RBAC}/namespaces/default/roles`, role)).status).toBe(201);
    expect(
      (
        await admin(
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          roleBinding(
            'devs',
            { kind: 'Role', name: 'secret-writer' },
            { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'developers' },
          ),
        )
      ).status,
    ).toBe(201);
    await expect
      .poll(
        async () =>
          (await srv.api('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's1' } }, as(ALICE))).status,
      )
      .toBe(201);
    expect((await srv.api('GET', '/api/v1/namespaces/default/secrets/s1', undefined, as(ALICE))).status).toBe(200);
    expect((await srv.api('DELETE', '/api/v1/namespaces/default/secrets/s1', undefined, as(ALICE))).status).toBe(403);
  });

  it('matches a ServiceAccount subject without a namespace in the binding namespace', async () => {
    expect((await srv.api('GET', '/api/v1/namespaces/default/pods', undefined, as(BUILDER))).status).toBe(403);
    expect(
      (
        await admin(
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          roleBinding(
            'builder-edit',
            { kind: 'ClusterRole', name: 'edit' },
            { kind: 'ServiceAccount', name: 'builder' },
          ),
        )
      ).status,
    ).toBe(201);
    await expect
      .poll(async () => (await srv.api('GET', '/api/v1/namespaces/default/pods', undefined, as(BUILDER))).status)
      .toBe(200);
    expect((await srv.api('GET', '/api/v1/namespaces/kube-system/pods', undefined, as(BUILDER))).status).toBe(403);
  });

  it('has the bootstrap roles and bindings, with system:masters as cluster-admin', async () => {
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
    ]) {
      const res = await admin('GET', `${RBAC}/clusterroles/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.body.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    }
    const binding = await admin('GET', `${RBAC}/clusterrolebindings/cluster-admin`);
    expect(binding.body.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'cluster-admin',
    });
    expect(binding.body.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
    ]);
  });

  it('fills aggregated roles: view, edit and admin take the rules of roles labelled for them', async () => {
    const view = async () => (await admin('GET', `${RBAC}/clusterroles/view`)).body;
    await expect.poll(async () => (await view()).rules?.length ?? 0).toBeGreaterThan(0);
    expect((await admin('GET', `${RBAC}/clusterroles/admin`)).body.rules).toEqual(
      expect.arrayContaining((await view()).rules),
    );
    const extra = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'view-secrets', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
    };
    expect((await admin('POST', `${RBAC}/clusterroles`, extra)).status).toBe(201);
    await expect.poll(async () => (await view()).rules).toContainEqual(extra.rules[0]);
    // admin aggregates edit, which aggregates view: the new rule reaches it too.
    await expect
      .poll(async () => (await admin('GET', `${RBAC}/clusterroles/admin`)).body.rules)
      .toContainEqual(extra.rules[0]);
    // alice is bound to view in default: she may now list secrets there.
    await expect
      .poll(async () => (await srv.api('GET', '/api/v1/namespaces/default/secrets', undefined, as(ALICE))).status)
      .toBe(200);
  });

  it('refuses to grant what the writer does not hold, unless it may bind or escalate', async () => {
    const binder = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'binder' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['create'] }],
    };
    expect((await admin('POST', `${RBAC}/namespaces/default/roles`, binder)).status).toBe(201);
    expect(
      (
        await admin(
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          roleBinding(
            'alice-binder',
            { kind: 'Role', name: 'binder' },
            { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
          ),
        )
      ).status,
    ).toBe(201);
    const alice = (method: string, path: string, body: unknown) => srv.api(method, path, body, as(ALICE));
    const toAdmin = roleBinding(
      'alice-admin',
      { kind: 'ClusterRole', name: 'cluster-admin' },
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
    );
    let refused = await alice('POST', `${RBAC}/namespaces/default/rolebindings`, toAdmin);
    for (let i = 0; i < 20 && refused.status === 403 && !refused.body.message.includes('attempting'); i++) {
      await new Promise((r) => setTimeout(r, 100)); // the binding above reaches the authorizer
      refused = await alice('POST', `${RBAC}/namespaces/default/rolebindings`, toAdmin);
    }
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "alice-admin" is forbidden: user "alice" (groups=["developers" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
    // She holds view in default: binding it to someone else there is fine.
    expect(
      (
        await alice(
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          roleBinding(
            'bob-view',
            { kind: 'ClusterRole', name: 'view' },
            { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' },
          ),
        )
      ).status,
    ).toBe(201);
    const role = (name: string, verbs: string[]) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }],
    });
    expect((await alice('POST', `${RBAC}/namespaces/default/roles`, role('reader', ['get', 'list']))).status).toBe(201);
    const escalating = await alice('POST', `${RBAC}/namespaces/default/roles`, role('deleter', ['delete']));
    expect(escalating.status).toBe(403);
    expect(escalating.body.message).toContain('{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}');
    // With `bind` on cluster-admin she may bind it after all.
    const mayBind = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'bind-cluster-admin' },
      rules: [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['cluster-admin'],
        },
      ],
    };
    expect((await admin('POST', `${RBAC}/clusterroles`, mayBind)).status).toBe(201);
    expect(
      (
        await admin(
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          roleBinding(
            'alice-may-bind',
            { kind: 'ClusterRole', name: 'bind-cluster-admin' },
            { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
          ),
        )
      ).status,
    ).toBe(201);
    await expect
      .poll(async () => (await alice('POST', `${RBAC}/namespaces/default/rolebindings`, toAdmin)).status)
      .toBe(201);
    // Now admin of default, she may delete secrets there but still nowhere else.
    await expect
      .poll(async () => (await srv.api('GET', '/api/v1/namespaces/default/secrets', undefined, as(ALICE))).status)
      .toBe(200);
    expect((await srv.api('GET', '/api/v1/namespaces/kube-system/secrets', undefined, as(ALICE))).status).toBe(403);
  });

  it('restores a deleted bootstrap role at the next start; --authorization-mode=AlwaysAllow allows everyone', async () => {
    expect((await admin('DELETE', `${RBAC}/clusterroles/system:basic-user`)).status).toBe(200);
    expect((await admin('GET', `${RBAC}/clusterroles/system:basic-user`)).status).toBe(404);
    await srv.stop();
    srv = await start({ authorizationModes: ['AlwaysAllow'] });
    expect((await srv.api('GET', '/api/v1/namespaces/kube-system/secrets', undefined, as(ALICE))).status).toBe(200);
    await srv.stop();
    srv = await start();
    expect((await admin('GET', `${RBAC}/clusterroles/system:basic-user`)).status).toBe(200);
    expect((await srv.api('GET', '/api/v1/namespaces/kube-system/secrets', undefined, as(ALICE))).status).toBe(403);
  });
});
