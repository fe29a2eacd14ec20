/**
 * Test material for the certificate controllers, after upstream's test helpers (signer_test.go
 * makeTestCSR, sarapprove_test.go makeFancyTestCsr, testdata/ca.crt): certificate requests made
 * with fresh keys, CertificateSigningRequest objects around them, and a CA (RSA, as upstream's
 * testdata) made once per test file.
 */
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Csr } from './csr-conditions.js';

const crypto = webcrypto;
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

/** What a test request holds. */
export interface RequestParts {
  readonly cn?: string;
  readonly orgs?: readonly string[];
  readonly dns?: readonly string[];
  readonly ips?: readonly string[];
  readonly emails?: readonly string[];
  readonly uris?: readonly string[];
}

/** The subject of `parts` as an x509 JSON name (CN, then each O). */
function subjectOf(parts: RequestParts): x509.JsonName {
  const name: x509.JsonName = [];
  if (parts.cn) name.push({ '2.5.4.3': [parts.cn] });
  for (const o of parts.orgs ?? []) name.push({ '2.5.4.10': [o] });
  return name;
}

/** A PEM certificate request of `parts` with a new P-256 key; also the key pair. */
export async function makeRequestPem(
  parts: RequestParts = {},
): Promise<{ pem: string; keys: webcrypto.CryptoKeyPair }> {
  const keys = (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const sans: x509.JsonGeneralName[] = [
    ...(parts.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(parts.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(parts.emails ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(parts.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const req = await x509.Pkcs10CertificateRequestGenerator.create(
    {
      name: new x509.Name(subjectOf(parts)),
      keys,
      signingAlgorithm: EC,
      extensions: sans.length ? [new x509.SubjectAlternativeNameExtension(sans)] : [],
    },
    crypto,
  );
  return { pem: req.toString('pem') + '\n', keys };
}

/** What a test CSR object holds besides its request. */
export interface CsrParts extends RequestParts {
  readonly name?: string;
  readonly signerName?: string;
  readonly usages?: readonly string[];
  readonly username?: string;
  readonly approved?: boolean;
  readonly denied?: boolean;
  readonly failed?: boolean;
  readonly expirationSeconds?: number;
}

/** A CertificateSigningRequest as the store holds it (request and certificate base64). */
export async function makeCsr(parts: CsrParts = {}): Promise<Csr> {
  const { pem } = await makeRequestPem(parts);
  const conditions = [
    ...(parts.approved ? [{ type: 'Approved', status: 'True' }] : []),
    ...(parts.denied ? [{ type: 'Denied', status: 'True' }] : []),
    ...(parts.failed ? [{ type: 'Failed', status: 'True' }] : []),
  ];
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: parts.name ?? 'test-csr', resourceVersion: '1' },
    spec: {
      request: Buffer.from(pem).toString('base64'),
      signerName: parts.signerName ?? '',
      usages: [...(parts.usages ?? [])],
      ...(parts.username !== undefined ? { username: parts.username } : {}),
      ...(parts.expirationSeconds !== undefined ? { expirationSeconds: parts.expirationSeconds } : {}),
    },
    status: conditions.length ? { conditions } : {},
  } as Csr;
}

/** A self-signed RSA CA (PEM certificate and PKCS#8 key) valid from `notBefore` (default now) to `notAfter` (default ten years on). */
export async function makeCa(
  validity: { readonly notBefore?: Date; readonly notAfter?: Date } = {},
): Promise<{ certPem: string; keyPem: string }> {
  const notBefore = validity.notBefore ?? new Date();
  const alg = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: 'CN=test-ca',
      keys,
      signingAlgorithm: alg,
      notBefore,
      notAfter: validity.notAfter ?? new Date(notBefore.getTime() + 3650 * 86_400_000),
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { certPem: cert.toString('pem') + '\n', keyPem };
}
