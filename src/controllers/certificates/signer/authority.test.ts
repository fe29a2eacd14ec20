/**
 * Upstream 1.33 pkg/controller/certificates/authority/authority_test.go
 * TestCertificateAuthority: what the CA puts in a certificate under each signing policy (issuer
 * and authority key id, key usages, backdating with and without the short-lifetime rule,
 * expiry cut at the CA's own, URI SANs) and the refusals of an expired CA; and
 * keyUsagesFromStrings (policies.go).
 */
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCa, makeRequestPem, type RequestParts } from '../csr.fixture.js';
import { CertificateAuthority } from './authority.js';
import { goTime, keyUsagesFromStrings, type SigningPolicy } from './policy.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
// Whole seconds, as certificates hold them.
const now = Math.floor(Date.now() / 1000) * 1000;
let ca: CertificateAuthority;
let caCert: x509.X509Certificate;
/** A CA whose NotAfter is `now` (upstream mutates the CA's NotAfter). */
let expiredCa: CertificateAuthority;

beforeAll(async () => {
  const made = await makeCa({ notBefore: new Date(now - 24 * HOUR), notAfter: new Date(now + 24 * HOUR) });
  ca = await CertificateAuthority.load(made.certPem, made.keyPem);
  caCert = new x509.X509Certificate(made.certPem);
  const expired = await makeCa({ notBefore: new Date(now - 24 * HOUR), notAfter: new Date(now) });
  expiredCa = await CertificateAuthority.load(expired.certPem, expired.keyPem);
});

interface Case {
  readonly name: string;
  readonly cr?: RequestParts;
  readonly policy: Omit<SigningPolicy, 'now' | 'usages' | 'backdateMs' | 'shortMs'> & Partial<SigningPolicy>;
  readonly expiredCa?: boolean;
  readonly want?: {
    notBefore: number;
    notAfter: number;
    keyUsage?: number;
    extKeyUsage?: string[];
    uris?: string[];
    caInfo?: boolean;
  };
  readonly wantErr?: string;
}

const CASES: readonly Case[] = [
  { name: 'ca info', policy: { ttlMs: HOUR }, want: { notBefore: now, notAfter: now + HOUR, caInfo: true } },
  {
    name: 'key usage',
    policy: { ttlMs: HOUR, usages: ['signing'] },
    want: { notBefore: now, notAfter: now + HOUR, keyUsage: x509.KeyUsageFlags.digitalSignature },
  },
  {
    name: 'ext key usage',
    policy: { ttlMs: HOUR, usages: ['client auth'] },
    want: { notBefore: now, notAfter: now + HOUR, extKeyUsage: [x509.ExtendedKeyUsage.clientAuth] },
  },
  {
    name: 'backdate without short',
    policy: { ttlMs: HOUR, backdateMs: 5 * MIN },
    want: { notBefore: now - 5 * MIN, notAfter: now + 55 * MIN },
  },
  {
    name: 'backdate without short and super small ttl',
    policy: { ttlMs: MIN, backdateMs: 5 * MIN },
    want: { notBefore: now - 5 * MIN, notAfter: now - 4 * MIN },
  },
  {
    name: 'backdate with short',
    policy: { ttlMs: HOUR, backdateMs: 5 * MIN, shortMs: 8 * HOUR },
    want: { notBefore: now - 5 * MIN, notAfter: now + HOUR },
  },
  {
    name: 'backdate with short and super small ttl',
    policy: { ttlMs: MIN, backdateMs: 5 * MIN, shortMs: 8 * HOUR },
    want: { notBefore: now - 5 * MIN, notAfter: now + MIN },
  },
  {
    name: 'backdate with short but longer ttl',
    policy: { ttlMs: 24 * HOUR, backdateMs: 5 * MIN, shortMs: 8 * HOUR },
    want: { notBefore: now - 5 * MIN, notAfter: now + 24 * HOUR - 5 * MIN },
  },
  { name: 'truncate expiration', policy: { ttlMs: 48 * HOUR }, want: { notBefore: now, notAfter: now + 24 * HOUR } },
  {
    name: 'uri sans',
    cr: { uris: ['help://me@what:8080/where/when?why=true'] },
    policy: { ttlMs: HOUR },
    want: { notBefore: now, notAfter: now + HOUR, uris: ['help://me@what:8080/where/when?why=true'] },
  },
  {
    name: 'expired ca',
    policy: { ttlMs: HOUR },
    expiredCa: true,
    wantErr: `the signer has expired: NotAfter=${goTime(new Date(now))}`,
  },
  {
    name: 'expired ca with backdate',
    policy: { ttlMs: HOUR, backdateMs: 5 * MIN },
    expiredCa: true,
    wantErr: `refusing to sign a certificate that expired in the past: NotAfter=${goTime(new Date(now))}`,
  },
];

describe('TestCertificateAuthority', () => {
  it.each(CASES)('$name', async (c) => {
    const { pem } = await makeRequestPem(c.cr ?? {});
    const policy: SigningPolicy = { usages: [], backdateMs: 0, shortMs: 0, ...c.policy, now: () => now };
    const signing = (c.expiredCa ? expiredCa : ca).sign(pem, policy);
    if (c.wantErr) return expect(signing).rejects.toThrow(c.wantErr);
    const cert = new x509.X509Certificate(await signing);
    const want = c.want!;
    expect(cert.notBefore.getTime()).toBe(want.notBefore);
    expect(cert.notAfter.getTime()).toBe(want.notAfter);
    expect(cert.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    expect(cert.getExtension(x509.KeyUsagesExtension)?.usages).toBe(want.keyUsage);
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual(want.extKeyUsage);
    if (want.uris)
      expect(cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual(
        want.uris.map((value) => ({ type: 'url', value })),
      );
    if (want.caInfo) {
      expect(cert.issuer).toBe(caCert.subject);
      expect(cert.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(
        caCert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId,
      );
      expect(await cert.verify({ publicKey: caCert.publicKey, signatureOnly: true })).toBe(true);
    }
  });

  it('keeps DNS, IP and email SANs, and marks them critical when the subject is empty', async () => {
    const { pem } = await makeRequestPem({ dns: ['a.example'], ips: ['10.0.0.1', '::1'], emails: ['x@example.com'] });
    const cert = new x509.X509Certificate(await ca.sign(pem, { ttlMs: HOUR, usages: [], backdateMs: 0, shortMs: 0 }));
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
    expect(san?.critical).toBe(true);
    expect(san?.names.toJSON()).toEqual([
      { type: 'dns', value: 'a.example' },
      { type: 'ip', value: '10.0.0.1' },
      { type: 'ip', value: '::1' },
      { type: 'email', value: 'x@example.com' },
    ]);
  });
});

describe('keyUsagesFromStrings', () => {
  it('maps key usages to bits and extended ones to OIDs in Go order, deduplicated', () => {
    expect(
      keyUsagesFromStrings(['client auth', 'key encipherment', 'server auth', 'digital signature', 'signing']),
    ).toEqual({
      keyUsage: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      extKeyUsages: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
    });
    expect(keyUsagesFromStrings(['s/mime', 'email protection']).extKeyUsages).toEqual([
      x509.ExtendedKeyUsage.emailProtection,
    ]);
  });

  it('refuses unknown usages, listing them as Go quotes them', () => {
    expect(() => keyUsagesFromStrings(['client auth', 'fly', 'swim'])).toThrow(
      'unrecognized usage values: ["fly" "swim"]',
    );
  });
});
