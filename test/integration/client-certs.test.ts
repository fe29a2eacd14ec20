/**
 * Client certificates as upstream's x509 authenticator reads them: verified against
 * --client-ca-file (by default the generated CA), user = CN, groups = every O; the generated
 * admin kubeconfig carries one (kubernetes-admin in system:masters, as kubeadm's admin.conf).
 * A certificate from another CA, or one not for client authentication, authenticates nobody.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { parse } from 'yaml';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServingCerts } from '../../src/serving/certs.js';
import { issueClientCert, type ClientCert } from '../../src/serving/client-certs.js';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

let dir: string;
let srv: TestServer;
let otherCa: ClientCert;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-client-certs-'));
  srv = await startTestServer();
  const other = await ensureServingCerts(join(dir, 'other-ca'), []);
  otherCa = { certPem: other.caPem, keyPem: await readFile(join(dir, 'other-ca', 'ca.key'), 'utf8') };
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** GET `path` presenting `cert` and no token. */
async function withCert(server: TestServer, cert: ClientCert, path: string): Promise<{ status: number; body: any }> {
  const agent = new Agent({ connect: { ca: server.running.caPem, cert: cert.certPem, key: cert.keyPem } });
  try {
    const res = await request(server.url + path, {
      method: path.includes('selfsubjectreviews') ? 'POST' : 'GET',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: path.includes('selfsubjectreviews') ? '{}' : undefined,
    });
    return { status: res.statusCode, body: await res.body.json() };
  } finally {
    await agent.close();
  }
}

const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const generatedCa = async (server: TestServer): Promise<ClientCert> => ({
  certPem: server.running.caPem!,
  keyPem: await readFile(join(server.dir, 'certs', 'ca.key'), 'utf8'),
});

describe('client certificates', () => {
  it('the generated admin kubeconfig authenticates as kubernetes-admin in system:masters by its certificate', async () => {
    const kubeconfig = parse(await readFile(srv.running.kubeconfigPath!, 'utf8'));
    const user = kubeconfig.users[0].user;
    const cert = {
      certPem: Buffer.from(user['client-certificate-data'], 'base64').toString(),
      keyPem: Buffer.from(user['client-key-data'], 'base64').toString(),
    };
    const me = await withCert(srv, cert, WHOAMI);
    expect(me.status).toBe(201);
    expect(me.body.status.userInfo).toEqual({
      username: 'kubernetes-admin',
      groups: ['system:masters', 'system:authenticated'],
    });
    expect((await withCert(srv, cert, '/api/v1/namespaces/kube-system/secrets')).status).toBe(200);
  });

  it('takes the user from CN and the groups from every O; RBAC then applies to them', async () => {
    const carol = await issueClientCert(await generatedCa(srv), 'carol', ['team-a', 'team-b']);
    const me = await withCert(srv, carol, WHOAMI);
    expect(me.body.status.userInfo).toEqual({
      username: 'carol',
      groups: ['team-a', 'team-b', 'system:authenticated'],
    });
    const denied = await withCert(srv, carol, '/api/v1/namespaces/default/secrets');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'secrets is forbidden: User "carol" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
  });

  it('ignores a certificate from another CA or one not meant for client authentication', async () => {
    const stranger = await issueClientCert(otherCa, 'mallory', ['system:masters']);
    expect((await withCert(srv, stranger, '/api/v1/namespaces')).status).toBe(401);
    const ca = await generatedCa(srv);
    const serverOnly = await generate(
      [
        { name: 'commonName', value: 'eve' },
        { name: 'organizationName', value: 'system:masters' },
      ],
      {
        keySize: 2048,
        algorithm: 'sha256',
        ca: { key: ca.keyPem, cert: ca.certPem },
        extensions: [{ name: 'extKeyUsage', serverAuth: true }],
      },
    );
    expect(
      (await withCert(srv, { certPem: serverOnly.cert, keyPem: serverOnly.private }, '/api/v1/namespaces')).status,
    ).toBe(401);
  });

  it('with --anonymous-auth, a certificate that fails is 401, never anonymous (upstream fail-on-error union)', async () => {
    const anon = await startTestServer({ anonymousAuth: true });
    try {
      // No credential at all: anonymous, and RBAC decides (it denies system:anonymous the namespaces).
      const none = await request(anon.url + '/api/v1/namespaces', { dispatcher: anon.agent });
      expect(none.statusCode).toBe(403);
      expect(((await none.body.json()) as any).message).toContain('User "system:anonymous" cannot list');
      const stranger = await issueClientCert(otherCa, 'mallory', ['system:masters']);
      const res = await withCert(anon, stranger, '/api/v1/namespaces');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    } finally {
      await anon.stop();
    }
  });

  it('with --client-ca-file trusts that bundle instead', async () => {
    const bundle = join(dir, 'other-ca', 'ca.crt');
    const other = await startTestServer({ clientCaFile: bundle });
    try {
      const dave = await issueClientCert(otherCa, 'dave', ['system:masters']);
      expect((await withCert(other, dave, '/api/v1/namespaces')).status).toBe(200);
      const fromGenerated = await issueClientCert(await generatedCa(other), 'kubernetes-admin', ['system:masters']);
      expect((await withCert(other, fromGenerated, '/api/v1/namespaces')).status).toBe(401);
      // Tokens still work beside certificates.
      expect((await other.api('GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await other.stop();
    }
  });
});
