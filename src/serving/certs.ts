/**
 * Serving certificates: without configured files the server makes a self-signed CA
 * (`ca.crt`/`ca.key`) and a serving certificate signed by it (`apiserver.crt`/`apiserver.key`)
 * in the cert dir, with SANs for localhost, the in-cluster service names, the machine's
 * hostname and the advertised addresses; valid one year. Existing files are reused while
 * valid for at least a day and covering every host.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ServingCerts {
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

const DNS_NAMES = [
  'localhost',
  'ck-apiserver',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];
const DAY_MS = 24 * 3600 * 1000;

/** Every host a generated certificate covers. */
export function servingHosts(extra: readonly string[]): string[] {
  return [
    ...new Set([
      ...DNS_NAMES,
      hostname(),
      '127.0.0.1',
      '::1',
      ...extra.filter((h) => h && h !== '0.0.0.0' && h !== '::'),
    ]),
  ];
}

function covers(certPem: string, hosts: readonly string[]): boolean {
  try {
    const cert = new X509Certificate(certPem);
    if (new Date(cert.validTo).getTime() < Date.now() + DAY_MS) return false;
    return hosts.every((h) => (isIP(h) ? cert.checkIP(h) : cert.checkHost(h)) !== undefined);
  } catch {
    return false;
  }
}

/**
 * Reuse or create the CA and serving certificate in `certDir` for `hosts` (IPs or DNS names).
 * Throws on file-system errors.
 */
export async function ensureServingCerts(certDir: string, hosts: readonly string[]): Promise<ServingCerts> {
  const files = {
    caFile: join(certDir, 'ca.crt'),
    caKey: join(certDir, 'ca.key'),
    certFile: join(certDir, 'apiserver.crt'),
    keyFile: join(certDir, 'apiserver.key'),
  };
  const all = servingHosts(hosts);
  try {
    const [caPem, certPem, keyPem] = await Promise.all(
      [files.caFile, files.certFile, files.keyFile].map((f) => readFile(f, 'utf8')),
    );
    if (covers(certPem, all) && new X509Certificate(certPem).checkIssued(new X509Certificate(caPem))) {
      return { caPem, certPem, keyPem, caFile: files.caFile, certFile: files.certFile, keyFile: files.keyFile };
    }
  } catch {
    /* absent or unreadable: generate below */
  }
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  const notAfterDate = new Date(Date.now() + 365 * DAY_MS);
  const ca = await generate([{ name: 'commonName', value: 'ck-apiserver-ca' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 10 * 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const serving = await generate([{ name: 'commonName', value: 'ck-apiserver' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: all.map((h) => (isIP(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h })),
      },
    ],
  });
  await writeFile(files.caFile, ca.cert);
  await writeFile(files.caKey, ca.private, { mode: 0o600 });
  await writeFile(files.certFile, serving.cert);
  await writeFile(files.keyFile, serving.private, { mode: 0o600 });
  return {
    caPem: ca.cert,
    certPem: serving.cert,
    keyPem: serving.private,
    caFile: files.caFile,
    certFile: files.certFile,
    keyFile: files.keyFile,
  };
}
