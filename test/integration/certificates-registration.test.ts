/**
 * CertificateSigningRequests, webhook configurations and APIServices across their versions (one
 * storage each): a write at one version reads back at every other, with the defaults of the
 * version written; a CSR's requestor is the user who created it; v1beta1 defaults a CSR's
 * signer from its request; `kubectl certificate approve` (1.33) approves through /approval and
 * `kubectl get csr` shows it; a local APIService is Available on create.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { KUBELET_CLIENT_CSR, KUBELET_SERVING_CSR, PLAIN_CSR, b64 } from '../fixtures/kinds/csr-pems.js';

const srv = useTestServer();

const pairs = (versions: readonly string[]) =>
  versions.flatMap((from) => versions.filter((to) => to !== from).map((to) => [from, to] as const));
const slug = (s: string) => s.replace(/[^a-z0-9]/g, '');

const CSR_VERSIONS = ['certificates.k8s.io/v1', 'certificates.k8s.io/v1beta1', 'certificates.ck.io/v1beta1'];
const ADMISSION_VERSIONS = [
  'admissionregistration.k8s.io/v1',
  'admissionregistration.k8s.io/v1beta1',
  'admissionregistration.ck.io/v1beta1',
];
const APISERVICE_VERSIONS = [
  'apiregistration.k8s.io/v1',
  'apiregistration.k8s.io/v1beta1',
  'apiregistration.ck.io/v1beta1',
];

describe('a CertificateSigningRequest written at one version reads back at every other', () => {
  it.each(pairs(CSR_VERSIONS))('written at %s, read at %s', async (from, to) => {
    const name = `csr-${slug(from)}-${slug(to)}`;
    const v1 = from.endsWith('/v1');
    const spec = v1
      ? { request: b64(PLAIN_CSR), signerName: 'example.com/s', usages: ['client auth'] }
      : { request: b64(PLAIN_CSR) };
    const created = await srv.api('POST', `/apis/${from}/certificatesigningrequests`, { metadata: { name }, spec });
    expect(created.status, created.text).toBe(201);
    const read = await srv.api('GET', `/apis/${to}/certificatesigningrequests/${name}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({
      apiVersion: to,
      kind: 'CertificateSigningRequest',
      metadata: { uid: created.body.metadata.uid },
      spec: {
        request: b64(PLAIN_CSR),
        // v1beta1's defaults: the legacy signer for a request that is not a kubelet's, two usages.
        signerName: v1 ? 'example.com/s' : 'kubernetes.io/legacy-unknown',
        usages: v1 ? ['client auth'] : ['digital signature', 'key encipherment'],
        username: 'admin',
        uid: 'uid-admin',
        groups: expect.arrayContaining(['system:masters']),
      },
    });
    // An approval through the other version reads back at the first.
    const approved = await srv.api('PUT', `/apis/${to}/certificatesigningrequests/${name}/approval`, {
      ...read.body,
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Pair' }] },
    });
    expect(approved.status, approved.text).toBe(200);
    const back = await srv.api('GET', `/apis/${from}/certificatesigningrequests/${name}`);
    expect(back.body.status.conditions).toMatchObject([{ type: 'Approved', status: 'True', reason: 'Pair' }]);
    expect(back.body.status.conditions[0].lastUpdateTime).toEqual(expect.any(String));
  });

  it('sets the requestor from the user, whatever the client sends, and keeps the spec on update', async () => {
    const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
    const spec = {
      request: b64(PLAIN_CSR),
      signerName: 'example.com/s',
      usages: ['client auth'],
      username: 'mallory',
      groups: ['x'],
    };
    const res = await srv.api('POST', path, {
      metadata: { name: 'csr-user' },
      spec,
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec).toMatchObject({ username: 'admin', uid: 'uid-admin' });
    expect(res.body.spec.groups).not.toContain('x');
    expect(res.body.status).toEqual({});
    const put = await srv.api('PUT', `${path}/csr-user`, {
      ...res.body,
      metadata: { ...res.body.metadata, labels: { a: 'b' } },
      spec: { ...res.body.spec, signerName: 'example.com/t' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ metadata: { labels: { a: 'b' } }, spec: { signerName: 'example.com/s' } });
    const selected = await srv.api('GET', `${path}?fieldSelector=spec.signerName%3Dexample.com/s`);
    expect(selected.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain('csr-user');
  });

  it.each([
    [
      KUBELET_CLIENT_CSR,
      ['digital signature', 'key encipherment', 'client auth'],
      'kubernetes.io/kube-apiserver-client-kubelet',
    ],
    [KUBELET_SERVING_CSR, ['digital signature', 'server auth'], 'kubernetes.io/kubelet-serving'],
  ])('v1beta1 defaults a kubelet request to its signer (%#)', async (pem, usages, signer) => {
    const name = `csr-kubelet-${signer.length}`;
    const res = await srv.api('POST', '/apis/certificates.k8s.io/v1beta1/certificatesigningrequests', {
      metadata: { name },
      spec: { request: b64(pem), usages },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec.signerName).toBe(signer);
  });
});

/** The webhook fields `version`'s defaults give. */
const hookDefaults = (version: string, mutating: boolean) => {
  const v1 = version.endsWith('/v1');
  return {
    failurePolicy: v1 ? 'Fail' : 'Ignore',
    matchPolicy: v1 ? 'Equivalent' : 'Exact',
    timeoutSeconds: v1 ? 10 : 30,
    sideEffects: v1 ? 'None' : 'Unknown',
    admissionReviewVersions: v1 ? ['v1'] : ['v1beta1'],
    namespaceSelector: {},
    objectSelector: {},
    rules: [{ scope: '*' }],
    clientConfig: { service: { port: 443 } },
    ...(mutating ? { reinvocationPolicy: 'Never' } : {}),
  };
};

describe.each([
  ['validatingwebhookconfigurations', false],
  ['mutatingwebhookconfigurations', true],
] as const)('%s written at one version read back at every other', (plural, mutating) => {
  it.each(pairs(ADMISSION_VERSIONS))('written at %s, read at %s', async (from, to) => {
    const name = `${plural.slice(0, 3)}-${slug(from)}-${slug(to)}`;
    const hook: Record<string, unknown> = {
      name: 'a.example.com',
      clientConfig: { service: { namespace: 'ns', name: 's' } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    };
    if (from.endsWith('/v1')) Object.assign(hook, { sideEffects: 'None', admissionReviewVersions: ['v1'] });
    const created = await srv.api('POST', `/apis/${from}/${plural}`, { metadata: { name }, webhooks: [hook] });
    expect(created.status, created.text).toBe(201);
    const read = await srv.api('GET', `/apis/${to}/${plural}/${name}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ apiVersion: to, webhooks: [hookDefaults(from, mutating)] });
    const updated = await srv.api('PUT', `/apis/${to}/${plural}/${name}`, {
      ...read.body,
      webhooks: [{ ...read.body.webhooks[0], timeoutSeconds: 5 }],
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await srv.api('GET', `/apis/${from}/${plural}/${name}`)).body.webhooks[0].timeoutSeconds).toBe(5);
  });
});

describe('an APIService written at one version reads back at every other', () => {
  it.each(pairs(APISERVICE_VERSIONS))('written at %s, read at %s', async (from, to) => {
    const group = `${slug(from)}-${slug(to)}.example.com`;
    const name = `v1.${group}`;
    const spec = { group, version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 };
    const created = await srv.api('POST', `/apis/${from}/apiservices`, { metadata: { name }, spec });
    expect(created.status, created.text).toBe(201);
    const read = await srv.api('GET', `/apis/${to}/apiservices/${name}`);
    expect(read.status, read.text).toBe(200);
    // A local APIService is available at once (PrepareForCreate).
    expect(read.body).toMatchObject({
      apiVersion: to,
      spec,
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] },
    });
    const updated = await srv.api('PUT', `/apis/${to}/apiservices/${name}`, {
      ...read.body,
      spec: { ...spec, versionPriority: 20 },
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await srv.api('GET', `/apis/${from}/apiservices/${name}`)).body.spec.versionPriority).toBe(20);
  });
});

describe('kubectl 1.33 and CertificateSigningRequests', () => {
  it('approves with certificate approve and shows the condition in get csr', async () => {
    const config = join(srv.dir, 'csr.kubeconfig');
    const ca = Buffer.from(srv.running.caPem ?? '').toString('base64');
    await writeFile(
      config,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'ck', cluster: { server: srv.url, 'certificate-authority-data': ca } }],
        users: [{ name: 'admin', user: { token: TEST_TOKEN } }],
        contexts: [{ name: 'admin', context: { cluster: 'ck', user: 'admin' } }],
        'current-context': 'admin',
      }),
    );
    const kubectl = (...args: string[]) =>
      run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [`--kubeconfig=${config}`, ...args]);
    const created = await srv.api('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      metadata: { name: 'csr-kubectl' },
      spec: { request: b64(PLAIN_CSR), signerName: 'example.com/s', usages: ['client auth'], expirationSeconds: 3600 },
    });
    expect(created.status, created.text).toBe(201);
    const approve = await kubectl('certificate', 'approve', 'csr-kubectl');
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toBe('certificatesigningrequest.certificates.k8s.io/csr-kubectl approved\n');
    const obj = (await srv.api('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/csr-kubectl')).body;
    expect(obj.status.conditions).toMatchObject([{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }]);
    const get = await kubectl('get', 'csr', 'csr-kubectl');
    expect(get.code, get.stderr).toBe(0);
    const [header, row] = get.stdout.trim().split('\n');
    expect(header.split(/\s+/)).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    expect(row.split(/\s+/)).toEqual(['csr-kubectl', expect.any(String), 'example.com/s', 'admin', '60m', 'Approved']);
  });
});
