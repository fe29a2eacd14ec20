/**
 * Upstream 1.33 pkg/controller/certificates/signer/signer_test.go: TestSigner (what an issued
 * certificate holds), TestHandle (which requests each built-in signer signs, fails or leaves)
 * and Test_signer_duration (the lifetime asked for against the TTL).
 */
import { X509Certificate as NodeX509 } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasTrueCondition, type Csr } from '../csr-conditions.js';
import { makeCa, makeCsr, makeRequestPem, type CsrParts } from '../csr.fixture.js';
import { CertificateAuthority } from './authority.js';
import { CsrSigner } from './signer.js';

const HOUR = 3600_000;
let ca: CertificateAuthority;
let caPem: string;

beforeAll(async () => {
  const made = await makeCa();
  caPem = made.certPem;
  ca = await CertificateAuthority.load(made.certPem, made.keyPem);
});

/** A client recording the objects written through `/status` (upstream's fake clientset actions). */
function recordingClient(): { updates: Csr[]; updateStatus(csr: Csr): Promise<void> } {
  const updates: Csr[] = [];
  return { updates, updateStatus: async (csr) => void updates.push(csr) };
}

describe('TestSigner', () => {
  it('issues the request subject with the policy usages, a backdated NotBefore and the TTL cap, signed by the CA', async () => {
    const signer = new CsrSigner('kubernetes.io/legacy-unknown', async () => ca, HOUR);
    const { pem } = await makeRequestPem({ cn: 'system:node:k-a-node-s36b', orgs: ['system:nodes'] });
    const now = Date.parse('2026-01-02T03:04:05Z');
    // Asking for 3h, more than the 1h TTL, is capped.
    const issued = await signer.sign(
      pem,
      ['signing', 'key encipherment', 'server auth', 'client auth'],
      3 * 3600,
      () => now,
    );
    const cert = new x509.X509Certificate(issued);
    expect(cert.subject).toBe('CN=system:node:k-a-node-s36b, O=system:nodes');
    expect(cert.notBefore.getTime()).toBe(now - 5 * 60_000);
    expect(cert.notAfter.getTime()).toBe(now + HOUR);
    expect(cert.getExtension(x509.KeyUsagesExtension)?.usages).toBe(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
    );
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([
      x509.ExtendedKeyUsage.serverAuth,
      x509.ExtendedKeyUsage.clientAuth,
    ]);
    const basic = cert.getExtension(x509.BasicConstraintsExtension);
    expect(basic?.ca).toBe(false);
    expect(basic?.critical).toBe(true);
    expect(cert.publicKey.algorithm.name).toBe('ECDSA');
    expect(cert.signatureAlgorithm).toMatchObject({ name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-256' } });
    expect(new NodeX509(issued).checkIssued(new NodeX509(caPem))).toBe(true);
    expect(new NodeX509(issued).verify(new NodeX509(caPem).publicKey)).toBe(true);
  });
});

interface HandleCase extends CsrParts {
  readonly name: string;
  readonly constructionErr?: boolean;
  readonly expect: 'issued' | 'failed' | 'nothing';
}

const CASES: readonly HandleCase[] = [
  {
    name: 'should sign if signerName is kubernetes.io/kube-apiserver-client',
    signerName: 'kubernetes.io/kube-apiserver-client',
    cn: 'hello-world',
    orgs: ['some-org'],
    usages: ['client auth', 'digital signature', 'key encipherment'],
    approved: true,
    expect: 'issued',
  },
  {
    name: 'should refuse to sign if signerName is kubernetes.io/kube-apiserver-client and contains an unexpected usage',
    signerName: 'kubernetes.io/kube-apiserver-client',
    cn: 'hello-world',
    orgs: ['some-org'],
    usages: ['server auth', 'client auth', 'digital signature', 'key encipherment'],
    approved: true,
    expect: 'failed',
  },
  {
    name: 'should sign if signerName is kubernetes.io/kube-apiserver-client-kubelet',
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    cn: 'system:node:hello-world',
    orgs: ['system:nodes'],
    usages: ['client auth', 'digital signature', 'key encipherment'],
    approved: true,
    expect: 'issued',
  },
  {
    name: 'should sign if signerName is kubernetes.io/legacy-unknown',
    signerName: 'kubernetes.io/legacy-unknown',
    approved: true,
    expect: 'issued',
  },
  {
    name: 'should sign if signerName is kubernetes.io/kubelet-serving',
    signerName: 'kubernetes.io/kubelet-serving',
    cn: 'system:node:testnode',
    orgs: ['system:nodes'],
    usages: ['server auth', 'digital signature', 'key encipherment'],
    dns: ['example.com'],
    approved: true,
    expect: 'issued',
  },
  {
    name: 'should do nothing if failed',
    signerName: 'kubernetes.io/kubelet-serving',
    cn: 'system:node:testnode',
    orgs: ['system:nodes'],
    usages: ['server auth', 'digital signature', 'key encipherment'],
    dns: ['example.com'],
    approved: true,
    failed: true,
    expect: 'nothing',
  },
  {
    name: 'should do nothing if an unrecognised signerName is used',
    signerName: 'kubernetes.io/not-recognised',
    constructionErr: true,
    approved: true,
    expect: 'nothing',
  },
  { name: 'should do nothing if not approved', signerName: 'kubernetes.io/kubelet-serving', expect: 'nothing' },
  {
    name: 'should do nothing if signerName does not start with kubernetes.io',
    signerName: 'example.com/sample-name',
    constructionErr: true,
    approved: true,
    expect: 'nothing',
  },
  {
    name: 'should do nothing if signerName starts with kubernetes.io but is unrecognised',
    signerName: 'kubernetes.io/not-a-real-signer',
    constructionErr: true,
    approved: true,
    expect: 'nothing',
  },
];

describe('TestHandle', () => {
  it.each(CASES)('$name', async (c) => {
    if (c.constructionErr) {
      expect(() => new CsrSigner(c.signerName!, async () => ca, HOUR)).toThrow(
        `unrecognized signerName: ${JSON.stringify(c.signerName)}`,
      );
      return;
    }
    const signer = new CsrSigner(c.signerName!, async () => ca, HOUR);
    const client = recordingClient();
    await signer.handle(await makeCsr(c), client);
    if (c.expect === 'nothing') return expect(client.updates).toEqual([]);
    expect(client.updates).toHaveLength(1);
    const written = client.updates[0];
    if (c.expect === 'issued') {
      expect(written.status?.certificate).toBeTruthy();
      const pem = Buffer.from(written.status!.certificate!, 'base64').toString();
      expect(new NodeX509(pem).checkIssued(new NodeX509(caPem))).toBe(true);
    } else {
      expect(written.status?.certificate).toBeFalsy();
      expect(hasTrueCondition(written, 'Failed')).toBe(true);
      expect(written.status?.conditions?.at(-1)).toMatchObject({
        type: 'Failed',
        status: 'True',
        reason: 'SignerValidationFailure',
        message: 'invalid usage for client certificate: server auth',
      });
    }
  });

  it('leaves a request for another signer to that signer', async () => {
    const signer = new CsrSigner('kubernetes.io/kubelet-serving', async () => ca, HOUR);
    const client = recordingClient();
    await signer.handle(await makeCsr({ signerName: 'kubernetes.io/legacy-unknown', approved: true }), client);
    expect(client.updates).toEqual([]);
  });
});

describe('Test_signer_duration', () => {
  const MIN = 60_000;
  const cases: readonly [name: string, expirationSeconds: number | undefined, want: number][] = [
    ['can request shorter duration than TTL', 30 * 60, 30 * MIN],
    ['cannot request longer duration than TTL', 3 * 3600, HOUR],
    ['cannot request negative duration', -60, 10 * MIN],
    ['cannot request duration less than 10 mins', 10 * 60 - 1, 10 * MIN],
    ['can request duration of exactly 10 mins', 10 * 60, 10 * MIN],
    ['can request duration equal to the default', 3600, HOUR],
    ['can choose not to request a duration to get the default', undefined, HOUR],
  ];
  it.each(cases)('%s', (_name, expirationSeconds, want) => {
    const signer = new CsrSigner('kubernetes.io/legacy-unknown', async () => ca, HOUR);
    expect(signer.duration(expirationSeconds)).toBe(want);
  });
});
