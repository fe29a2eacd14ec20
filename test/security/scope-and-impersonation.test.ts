/**
 * Two ways around authorization a red-team review found (issue F4, F5), tried as an attacker
 * would with raw HTTP and with kubectl 1.33:
 *  - cluster-scoped kinds addressed under `/namespaces/{ns}/` are 404 (upstream registers no
 *    such route), so a namespace admin cannot create Nodes or PersistentVolumes, delete other
 *    namespaces or create ClusterRoleBindings through their namespace;
 *  - `Impersonate-*` headers switch the user only when the caller may `impersonate` each part,
 *    as upstream; `kubectl --as` and `auth can-i --as` then answer for the impersonated user and
 *    the audit log names both.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startTestServer, writeKubeconfig, type TestServer } from '../helpers/in-process.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const ADMIN = 'imp-admin';
const NSADMIN = 'imp-nsadmin';
const VIEWER = 'imp-viewer';
const ALICE = 'imp-alice';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

let dir: string;
let srv: TestServer;
const as = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
const admin = (method: string, path: string, body?: unknown) => srv.api(method, path, body, as(ADMIN));

async function grant(
  namespace: string,
  name: string,
  rules: unknown[],
  subject: string,
  cluster = false,
): Promise<void> {
  const meta = cluster ? { name } : { name, namespace };
  const base = cluster ? RBAC : `${RBAC}/namespaces/${namespace}`;
  expect((await admin('POST', `${base}/${cluster ? 'clusterroles' : 'roles'}`, { metadata: meta, rules })).status).toBe(
    201,
  );
  const binding = {
    metadata: meta,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: cluster ? 'ClusterRole' : 'Role', name },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: subject }],
  };
  expect((await admin('POST', `${base}/${cluster ? 'clusterrolebindings' : 'rolebindings'}`, binding)).status).toBe(
    201,
  );
}

/** Wait until RBAC (fed by watches) lets `token` do `verb` on `path`. */
async function until(
  token: string,
  method: string,
  path: string,
  status: number,
  headers: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + 5000;
  let last = 0;
  while (Date.now() < deadline) {
    last = (await srv.api(method, path, undefined, as(token, headers))).status;
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${method} ${path} answered ${last}, not ${status}, within 5 s`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-sec-imp-'));
  await writeFile(
    join(dir, 'tokens.csv'),
    [
      `${ADMIN},admin,uid-admin,"system:masters"`,
      `${NSADMIN},nsadmin,uid-nsadmin`,
      `${VIEWER},viewer,uid-viewer`,
      `${ALICE},alice,uid-alice,"developers"`,
    ].join('\n') + '\n',
  );
  await writeFile(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
  srv = await startTestServer({
    tokenAuthFile: join(dir, 'tokens.csv'),
    auditLogPath: join(dir, 'audit.log'),
    auditPolicyFile: join(dir, 'policy.yaml'),
  });
  for (const ns of ['team', 'other'])
    expect((await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  // A namespace admin with every verb on every resource of every group, in `team` only.
  await grant('team', 'everything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], 'nsadmin');
  const view = {
    metadata: { name: 'viewer-view', namespace: 'team' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'viewer' }],
  };
  expect((await admin('POST', `${RBAC}/namespaces/team/rolebindings`, view)).status).toBe(201);
  await until(NSADMIN, 'GET', '/api/v1/namespaces/team/configmaps', 200);
  await until(VIEWER, 'GET', '/api/v1/namespaces/team/pods', 200);
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('cluster-scoped kinds under a namespace (F4)', () => {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'evil-node' } };
  const pv = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'root' },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/' } },
  };
  const crb = {
    metadata: { name: 'mine' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'nsadmin' }],
  };

  it.each([
    ['POST', '/api/v1/namespaces/team/nodes', node],
    ['POST', '/api/v1/namespaces/team/persistentvolumes', pv],
    ['DELETE', '/api/v1/namespaces/team/namespaces/other', undefined],
    ['GET', '/api/v1/namespaces/team/namespaces', undefined],
    ['GET', '/api/v1/watch/namespaces/team/nodes', undefined],
    ['POST', `${RBAC}/namespaces/team/clusterrolebindings`, crb],
    ['POST', `${RBAC}/namespaces/team/clusterroles`, { metadata: { name: 'x' }, rules: [] }],
    [
      'POST',
      '/apis/authorization.k8s.io/v1/namespaces/team/subjectaccessreviews',
      { spec: { user: 'x', nonResourceAttributes: { path: '/', verb: 'get' } } },
    ],
  ])('%s %s is 404 for the namespace admin, and nothing is written', async (method, path, body) => {
    const res = await srv.api(method, path, body, as(NSADMIN));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    expect((await admin('GET', '/api/v1/nodes/evil-node')).status).toBe(404);
    expect((await admin('GET', '/api/v1/persistentvolumes/root')).status).toBe(404);
    expect((await admin('GET', '/api/v1/namespaces/other')).status).toBe(200);
    expect((await admin('GET', `${RBAC}/clusterrolebindings/mine`)).status).toBe(404);
  });

  it('a view user in one namespace cannot list namespaces through it; the same requests at their own scope are authorized as such', async () => {
    expect((await srv.api('GET', '/api/v1/namespaces/team/namespaces', undefined, as(VIEWER))).status).toBe(404);
    const denied = await srv.api('GET', '/api/v1/namespaces', undefined, as(VIEWER));
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'namespaces is forbidden: User "viewer" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    expect((await srv.api('POST', '/api/v1/nodes', node, as(NSADMIN))).status).toBe(403);
    // The namespace object itself and its subresources keep their paths.
    expect((await srv.api('GET', '/api/v1/namespaces/team', undefined, as(VIEWER))).status).toBe(200);
    expect((await admin('GET', '/api/v1/namespaces/team/status')).status).toBe(200);
    // A namespaced object is only addressed inside its namespace.
    expect((await admin('GET', '/api/v1/pods/anything')).status).toBe(404);
  });
});

describe('impersonation (F5)', () => {
  const whoami = (token: string, headers: Record<string, string>) =>
    srv.api(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      as(token, headers),
    );

  it('runs the request as the impersonated user once each part is allowed', async () => {
    const eve = await whoami(ADMIN, { 'Impersonate-User': 'eve' });
    expect(eve.status).toBe(201);
    expect(eve.body.status.userInfo).toEqual({ username: 'eve', groups: ['system:authenticated'] });
    // eve holds nothing: the admin acting as eve is refused what eve may not do.
    const denied = await srv.api(
      'GET',
      '/api/v1/namespaces/team/secrets',
      undefined,
      as(ADMIN, { 'Impersonate-User': 'eve' }),
    );
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'secrets is forbidden: User "eve" cannot list resource "secrets" in API group "" in the namespace "team"',
    );
    const full = await srv.api(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {},
      {
        ...as(ADMIN),
        'Impersonate-User': 'eve',
        'Impersonate-Group': 'auditors',
        'Impersonate-Uid': 'uid-eve',
        'Impersonate-Extra-Scopes': 'read',
      },
    );
    expect(full.body.status.userInfo).toEqual({
      username: 'eve',
      uid: 'uid-eve',
      groups: ['auditors', 'system:authenticated'],
      extra: { scopes: ['read'] },
    });
    const sa = await whoami(ADMIN, { 'Impersonate-User': 'system:serviceaccount:team:builder' });
    expect(sa.body.status.userInfo).toEqual({
      username: 'system:serviceaccount:team:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
    const anonymous = await whoami(ADMIN, { 'Impersonate-User': 'system:anonymous' });
    expect(anonymous.status).toBe(403); // system:anonymous may not review itself
    expect(anonymous.body.message).toContain('User "system:anonymous"');
  });

  it('refuses each part the caller may not impersonate, with upstream messages', async () => {
    const user = await whoami(ALICE, { 'Impersonate-User': 'bob' });
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ reason: 'Forbidden', details: { name: 'bob', kind: 'users' } });
    expect(user.body.message).toBe(
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    await grant(
      '',
      'impersonate-bob',
      [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] }],
      'alice',
      true,
    );
    await until(ALICE, 'GET', '/api/v1/namespaces/team/pods', 403, { 'Impersonate-User': 'bob' }); // bob is known now, and holds nothing
    expect((await whoami(ALICE, { 'Impersonate-User': 'bob' })).body.status.userInfo.username).toBe('bob');
    expect((await whoami(ALICE, { 'Impersonate-User': 'carol' })).status).toBe(403);
    const group = await whoami(ALICE, { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' });
    expect(group.body.message).toBe(
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    const uid = await whoami(ALICE, { 'Impersonate-User': 'bob', 'Impersonate-Uid': 'u1' });
    expect(uid.body.message).toBe(
      'uids.authentication.k8s.io "u1" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    );
    const extra = await whoami(ALICE, { 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'admin' });
    expect(extra.body.message).toBe(
      'userextras.authentication.k8s.io "admin" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
    const sa = await whoami(ALICE, { 'Impersonate-User': 'system:serviceaccount:team:builder' });
    expect(sa.body.message).toBe(
      'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
    );
    const noUser = await whoami(ADMIN, { 'Impersonate-Group': 'system:masters' });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });

  it('kubectl --as and auth can-i --as answer for the impersonated user; the audit log names both', async () => {
    const config = await writeKubeconfig(srv, 'admin', { token: ADMIN, namespace: 'team' });
    const kubectl = (...args: string[]) => run(KUBECTL, [`--kubeconfig=${config}`, ...args]);
    expect((await kubectl('auth', 'can-i', 'list', 'secrets')).stdout.trim()).toBe('yes');
    expect((await kubectl('auth', 'can-i', 'list', 'secrets', '--as=eve')).stdout.trim()).toBe('no');
    expect((await kubectl('auth', 'can-i', 'list', 'configmaps', '--as=nsadmin')).stdout.trim()).toBe('yes');
    expect((await kubectl('auth', 'can-i', 'list', 'configmaps', '-n', 'other', '--as=nsadmin')).stdout.trim()).toBe(
      'no',
    );
    const denied = await kubectl('get', 'secrets', '--as=eve');
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('User "eve" cannot list resource "secrets"');
    const who = await kubectl('auth', 'whoami', '--as=eve', '--as-group=auditors', '-o', 'json');
    expect(JSON.parse(who.stdout).status.userInfo).toMatchObject({
      username: 'eve',
      groups: ['auditors', 'system:authenticated'],
    });
    expect((await kubectl('get', 'configmaps', '--as=nsadmin')).code).toBe(0);
    // kubectl maps clusterroles to rbac.authorization.k8s.io (listed first in discovery), so a
    // role naming only that group lets its holder list them.
    await grant(
      '',
      'read-clusterroles',
      [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['get', 'list', 'watch'] }],
      'rbac-reader',
      true,
    );
    await until(ADMIN, 'GET', `${RBAC}/clusterroles`, 200, { 'Impersonate-User': 'rbac-reader' });
    const roles = await kubectl('get', 'clusterroles', '--as=rbac-reader', '-o', 'name');
    expect(roles.stderr).toBe('');
    expect(roles.stdout).toContain('clusterrole.rbac.authorization.k8s.io/cluster-admin');
    await expect
      .poll(async () => {
        const lines = (await readFile(join(dir, 'audit.log'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        return lines.find(
          (e) =>
            e.impersonatedUser?.username === 'eve' &&
            e.objectRef?.resource === 'secrets' &&
            e.stage === 'ResponseComplete',
        );
      })
      .toMatchObject({
        user: { username: 'admin' },
        impersonatedUser: { username: 'eve', groups: ['system:authenticated'] },
        responseStatus: { code: 403 },
      });
  });
});
