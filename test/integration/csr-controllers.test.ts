/**
 * The certificate controllers on an in-process server, as a user meets them: a request made
 * with the user's own key and approved as `kubectl certificate approve` does is signed by the
 * server's CA (csrsigning), and the certificate authenticates against the server as the
 * request's CN and O; a request the signer's rules refuse is Failed; a node's client
 * certificate request is approved by csrapproving once RBAC lets the node ask for it; the
 * cleaner deletes a request denied long ago; every namespace gets `kube-root-ca.crt`.
 */
import { X509Certificate, webcrypto } from 'node:crypto';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsrApprovingController } from '../../src/controllers/certificates/approver/controller.js';
import { CsrCleanerController } from '../../src/controllers/certificates/cleaner/cleaner.js';
import { makeRequestPem, type RequestParts } from '../../src/controllers/certificates/csr.fixture.js';
import { RootCaCertPublisher, DESCRIPTION } from '../../src/controllers/certificates/rootcacertpublisher/publisher.js';
import { serverCaSigningFiles } from '../../src/controllers/certificates/signer/ca-provider.js';
import { CsrSigningController } from '../../src/controllers/certificates/signer/controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const controllers: { stop(): void }[] = [];
let cleaner: CsrCleanerController;

beforeAll(() => {
  const { registry, logger, authorization } = srv.running.deps;
  const signing = new CsrSigningController(registry, logger, {
    defaultFiles: serverCaSigningFiles({ certDir: join(srv.dir, 'certs') }),
  });
  const approving = new CsrApprovingController(registry, logger, { authorizer: authorization.authorizer });
  const publisher = new RootCaCertPublisher(registry, logger, { rootCA: srv.running.caPem! });
  cleaner = new CsrCleanerController(registry, logger, { pollingIntervalMs: 3600_000 });
  for (const c of [signing, approving, publisher]) {
    c.start();
    controllers.push(c);
  }
});
afterAll(() => controllers.forEach((c) => c.stop()));

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Create a CSR for a new key; answers the private key as PKCS#8 PEM. */
async function createCsr(name: string, parts: RequestParts, spec: Record<string, unknown>, headers = {}) {
  const { pem, keys } = await makeRequestPem(parts);
  const body = { metadata: { name }, spec: { request: Buffer.from(pem).toString('base64'), ...spec } };
  const res = await srv.api('POST', CSRS, body, headers);
  expect(res.status).toBe(201);
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return `-----BEGIN PRIVATE KEY-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

/** What `kubectl certificate approve|deny` writes. */
async function decide(name: string, type: 'Approved' | 'Denied', lastUpdateTime?: string) {
  const csr = (await srv.api('GET', `${CSRS}/${name}`)).body;
  const condition = { type, status: 'True', reason: `Kubectl${type}`, message: 'by the test', lastUpdateTime };
  csr.status = { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] };
  expect((await srv.api('PUT', `${CSRS}/${name}/approval`, csr)).status).toBe(200);
}

const getCsr = (name: string) => srv.api('GET', `${CSRS}/${name}`).then((r) => r.body);

describe('csrsigning', () => {
  it('signs an approved kube-apiserver-client request with the server CA; the certificate logs in as CN and O', async () => {
    const keyPem = await createCsr(
      'jane',
      { cn: 'jane', orgs: ['dev-team', 'ops'] },
      { signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 3600 },
    );
    await decide('jane', 'Approved');
    const csr = await until(
      () => getCsr('jane'),
      (c) => Boolean(c.status?.certificate),
    );
    const certPem = Buffer.from(csr.status.certificate, 'base64').toString();
    const cert = new X509Certificate(certPem);
    expect(cert.checkIssued(new X509Certificate(srv.running.caPem!))).toBe(true);
    // One hour as asked (under 8 h: NotAfter not backdated), NotBefore backdated 5 minutes.
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(65 * 60_000);
    const agent = new Agent({ connect: { ca: srv.running.caPem, cert: certPem, key: keyPem } });
    try {
      const res = await request(`${srv.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.statusCode).toBe(201);
      const review = (await res.body.json()) as { status: { userInfo: unknown } };
      expect(review.status.userInfo).toEqual({ username: 'jane', groups: ['dev-team', 'ops', 'system:authenticated'] });
    } finally {
      await agent.close();
    }
  });

  it('fails an approved request the signer refuses, with upstream reason and message', async () => {
    await createCsr(
      'bad-usage',
      { cn: 'x' },
      { signerName: 'kubernetes.io/kube-apiserver-client', usages: ['server auth', 'client auth'] },
    );
    await decide('bad-usage', 'Approved');
    const csr = await until(
      () => getCsr('bad-usage'),
      (c) => c.status?.conditions?.some((x: any) => x.type === 'Failed'),
    );
    expect(csr.status.certificate).toBeUndefined();
    expect(csr.status.conditions.find((x: any) => x.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'SignerValidationFailure',
      message: 'invalid usage for client certificate: server auth',
    });
  });

  it('leaves a request that is not approved, and one for a signer it does not serve', async () => {
    await createCsr(
      'pending',
      { cn: 'p' },
      { signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    );
    await createCsr('custom', { cn: 'c' }, { signerName: 'example.com/custom', usages: ['client auth'] });
    await decide('custom', 'Approved');
    await new Promise((r) => setTimeout(r, 500));
    expect((await getCsr('pending')).status?.certificate).toBeUndefined();
    expect((await getCsr('custom')).status?.certificate).toBeUndefined();
  });
});

describe('csrapproving', () => {
  const NODE = { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' };
  const KUBELET_CLIENT = {
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    usages: ['digital signature', 'client auth'],
  };

  /** A ClusterRoleBinding of `role` to the group system:nodes (as kubeadm makes them). */
  const bindNodes = async (name: string, role: string) => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:nodes' }],
    };
    expect((await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding)).status).toBe(201);
  };

  it('approves a node renewing its own client certificate once RBAC allows selfnodeclient, then it is signed', async () => {
    await bindNodes('nodes-create-csrs', 'system:node-bootstrapper');
    await createCsr('node-n1', { cn: 'system:node:n1', orgs: ['system:nodes'] }, KUBELET_CLIENT, NODE);
    await new Promise((r) => setTimeout(r, 500));
    expect((await getCsr('node-n1')).status?.conditions).toBeUndefined();
    await bindNodes(
      'node-autoapprove-certificate-rotation',
      'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    );
    const csr = await until(
      () => getCsr('node-n1'),
      (c) => Boolean(c.status?.certificate),
    );
    expect(csr.status.conditions[0]).toMatchObject({
      type: 'Approved',
      status: 'True',
      reason: 'AutoApproved',
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    });
    const cert = new X509Certificate(Buffer.from(csr.status.certificate, 'base64'));
    expect(cert.subject).toContain('CN=system:node:n1');
  });
});

describe('csrcleaner', () => {
  it('deletes a request denied more than an hour ago and keeps a fresh one', async () => {
    await createCsr('old-denied', { cn: 'o' }, { signerName: 'example.com/x', usages: ['client auth'] });
    await createCsr('new-denied', { cn: 'n' }, { signerName: 'example.com/x', usages: ['client auth'] });
    await decide('old-denied', 'Denied', new Date(Date.now() - 2 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'));
    await decide('new-denied', 'Denied');
    // The cleaner lists from the watch cache: wait until it holds both denials.
    await until(
      () => srv.api('GET', `${CSRS}/old-denied`).then((r) => r.body),
      (c) => Boolean(c.status?.conditions),
    );
    await new Promise((r) => setTimeout(r, 200));
    await cleaner.worker();
    expect((await srv.api('GET', `${CSRS}/old-denied`)).status).toBe(404);
    expect((await srv.api('GET', `${CSRS}/new-denied`)).status).toBe(200);
  });
});

describe('root-ca-cert-publisher', () => {
  const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;

  it('publishes the serving CA in every namespace, and puts it back when deleted or changed', async () => {
    const cm = await until(
      () => srv.api('GET', path('default')),
      (r) => r.status === 200,
    );
    expect(cm.body.data).toEqual({ 'ca.crt': srv.running.caPem });
    expect(cm.body.metadata.annotations['kubernetes.io/description']).toBe(DESCRIPTION);
    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'fresh' } })).status).toBe(201);
    expect(
      (
        await until(
          () => srv.api('GET', path('fresh')),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
    expect((await srv.api('DELETE', path('fresh'))).status).toBe(200);
    const back = await until(
      () => srv.api('GET', path('fresh')),
      (r) => r.status === 200,
    );
    expect(back.body.data['ca.crt']).toBe(srv.running.caPem);
    const changed = { ...back.body, data: { 'ca.crt': 'tampered' } };
    expect((await srv.api('PUT', path('fresh'), changed)).status).toBe(200);
    const fixed = await until(
      () => srv.api('GET', path('fresh')),
      (r) => r.body.data?.['ca.crt'] === srv.running.caPem,
    );
    expect(fixed.body.data).toEqual({ 'ca.crt': srv.running.caPem });
  });
});
