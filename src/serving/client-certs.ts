/**
 * Client certificates issued from the server's generated CA: the admin kubeconfig's identity,
 * as kubeadm's admin.conf (CN `kubernetes-admin`, O `system:masters`). Reading them back is
 * auth/x509.ts.
 */
import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';

const DAY_MS = 24 * 3600 * 1000;

export interface ClientCert {
  readonly certPem: string;
  readonly keyPem: string;
}

/** A client certificate for `commonName` in `organizations`, signed by `ca`, valid `days`. */
export async function issueClientCert(
  ca: ClientCert,
  commonName: string,
  organizations: readonly string[],
  days = 365,
): Promise<ClientCert> {
  const attrs = [
    { name: 'commonName', value: commonName },
    ...organizations.map((value) => ({ name: 'organizationName', value })),
  ];
  const issued = await generate(attrs, {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + days * DAY_MS),
    ca: { key: ca.keyPem, cert: ca.certPem },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  });
  return { certPem: issued.cert, keyPem: issued.private };
}

/**
 * The admin client certificate in `certDir` (`admin.crt`/`admin.key`), issued by the generated
 * CA there (`ca.crt`/`ca.key`) when absent, expiring within a day, or not issued by that CA.
 * Throws on file-system errors (e.g. no CA key: the CA was not generated here).
 */
export async function ensureAdminClientCert(certDir: string): Promise<ClientCert> {
  const files = { cert: join(certDir, 'admin.crt'), key: join(certDir, 'admin.key') };
  const [caPem, caKey] = await Promise.all([
    readFile(join(certDir, 'ca.crt'), 'utf8'),
    readFile(join(certDir, 'ca.key'), 'utf8'),
  ]);
  try {
    const [certPem, keyPem] = await Promise.all([readFile(files.cert, 'utf8'), readFile(files.key, 'utf8')]);
    const cert = new X509Certificate(certPem);
    if (new Date(cert.validTo).getTime() > Date.now() + DAY_MS && cert.checkIssued(new X509Certificate(caPem)))
      return { certPem, keyPem };
  } catch {
    /* absent or unreadable: issue below */
  }
  const issued = await issueClientCert({ certPem: caPem, keyPem: caKey }, 'kubernetes-admin', ['system:masters']);
  await writeFile(files.cert, issued.certPem);
  await writeFile(files.key, issued.keyPem, { mode: 0o600 });
  return issued;
}
