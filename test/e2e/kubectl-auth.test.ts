/**
 * `kubectl auth can-i` (single and --list) and `kubectl auth whoami` (kubectl 1.33) for the
 * admin (system:masters) and for a user RBAC restricts, against a server with RBAC on; users
 * authenticated by token, by client certificate (the generated admin kubeconfig's and one
 * issued by the server's CA) and by a service account token from `kubectl create token`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startTestServer, writeKubeconfig, type TestServer } from '../helpers/in-process.js';
import { issueClientCert, type ClientCert } from '../../src/serving/client-certs.js';
import { readFile } from 'node:fs/promises';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
let dir: string;
let srv: TestServer;

/** A kubeconfig of `user`, by token or by client certificate. */
const kubeconfig = (user: string, token: string, cert?: ClientCert): Promise<string> =>
  writeKubeconfig(srv, user, { token, cert });

let asAdmin: (...args: string[]) => ReturnType<typeof run>;
let asAlice: (...args: string[]) => ReturnType<typeof run>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-kubectl-auth-'));
  await writeFile(
    join(dir, 'tokens.csv'),
    'auth-admin,admin,uid-admin,"system:masters"\nauth-alice,alice,uid-alice,"developers"\n',
  );
  srv = await startTestServer({ tokenAuthFile: join(dir, 'tokens.csv') });
  const admin = await kubeconfig('admin', 'auth-admin');
  const alice = await kubeconfig('alice', 'auth-alice');
  asAdmin = (...args) => run(KUBECTL, [`--kubeconfig=${admin}`, ...args]);
  asAlice = (...args) => run(KUBECTL, [`--kubeconfig=${alice}`, ...args]);
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('kubectl auth', () => {
  it('can-i answers yes for the admin and no for a user without bindings, then yes after a RoleBinding', async () => {
    expect((await asAdmin('auth', 'can-i', 'delete', 'namespaces')).stdout.trim()).toBe('yes');
    const denied = await asAlice('auth', 'can-i', 'list', 'pods');
    expect(denied.stdout.trim()).toBe('no');
    expect(denied.code).toBe(1);
    const bound = await asAdmin(
      'create',
      'rolebinding',
      'alice-view',
      '--clusterrole=view',
      '--user=alice',
      '-n',
      'default',
    );
    expect(bound.code, bound.stderr).toBe(0);
    let answer = '';
    for (let i = 0; i < 50 && answer !== 'yes'; i++)
      answer = (await asAlice('auth', 'can-i', 'list', 'pods')).stdout.trim();
    expect(answer).toBe('yes');
    expect((await asAlice('auth', 'can-i', 'list', 'pods', '-n', 'kube-system')).stdout.trim()).toBe('no');
    expect((await asAlice('auth', 'can-i', 'get', 'secrets')).stdout.trim()).toBe('no');
    const get = await asAlice('get', 'secrets');
    expect(get.stderr.trim()).toBe(
      'Error from server (Forbidden): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
  });

  it('can-i --list prints the rules the user holds', async () => {
    const list = await asAlice('auth', 'can-i', '--list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs/);
    expect(list.stdout).toMatch(/configmaps\s+\[\]\s+\[\]\s+\[get list watch\]/);
    expect(list.stdout).toMatch(/selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
    expect(list.stdout).toMatch(/\s\[\/api\/\*\]\s+\[\]\s+\[get\]/);
  });

  it('whoami shows the user and its groups', async () => {
    const me = await asAlice('auth', 'whoami');
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toMatch(/Username\s+alice/);
    expect(me.stdout).toMatch(/UID\s+uid-alice/);
    expect(me.stdout).toMatch(/Groups\s+\[developers system:authenticated\]/);
    expect((await asAdmin('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}')).stdout).toBe('admin');
  });

  it('authenticates a client certificate over HTTP/2: the generated admin kubeconfig and a user certificate', async () => {
    const generated = await run(KUBECTL, [
      `--kubeconfig=${srv.running.kubeconfigPath}`,
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
    ]);
    expect(generated.stdout, generated.stderr).toBe('kubernetes-admin');
    const ca = { certPem: srv.running.caPem ?? '', keyPem: await readFile(join(srv.dir, 'certs', 'ca.key'), 'utf8') };
    const carol = await kubeconfig('carol', '', await issueClientCert(ca, 'carol', ['team-a']));
    const me = await run(KUBECTL, [`--kubeconfig=${carol}`, 'auth', 'whoami']);
    expect(me.stdout).toMatch(/Username\s+carol/);
    expect(me.stdout).toMatch(/Groups\s+\[team-a system:authenticated\]/);
    expect((await run(KUBECTL, [`--kubeconfig=${carol}`, 'auth', 'can-i', 'list', 'secrets'])).stdout.trim()).toBe(
      'no',
    );
  });

  it('create token gives a service account token that authenticates as the account', async () => {
    expect((await asAdmin('create', 'namespace', 'tokens')).code).toBe(0);
    let created = await asAdmin('create', 'token', 'default', '-n', 'tokens', '--duration=15m');
    // The service-account controller creates `default` within a second of the namespace.
    for (let i = 0; i < 20 && created.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      created = await asAdmin('create', 'token', 'default', '-n', 'tokens', '--duration=15m');
    }
    expect(created.code, created.stderr).toBe(0);
    const sa = await kubeconfig('sa', created.stdout.trim());
    const me = await run(KUBECTL, [
      `--kubeconfig=${sa}`,
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
    ]);
    expect(me.stdout, me.stderr).toBe('system:serviceaccount:tokens:default');
    expect(
      (await run(KUBECTL, [`--kubeconfig=${sa}`, 'auth', 'can-i', 'list', 'pods', '-n', 'tokens'])).stdout.trim(),
    ).toBe('no');
  });
});
