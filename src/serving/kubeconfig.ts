/**
 * The admin kubeconfig kubectl uses as is: the server URL, the CA, and a client certificate
 * and/or a bearer token (kubectl presents both; the server asks the certificate first).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  readonly server: string;
  readonly caPem: string;
  readonly token?: string;
  /** PEM client certificate and key (client-certificate-data / client-key-data). */
  readonly clientCert?: { readonly certPem: string; readonly keyPem: string };
  readonly user?: string;
  readonly contextName?: string;
}

/** The kubeconfig document as YAML text. */
export function renderKubeconfig(o: KubeconfigOptions): string {
  const name = o.contextName ?? 'ck-apiserver';
  const user = o.user ?? 'admin';
  const cluster: Record<string, string> = { server: o.server };
  if (o.caPem) cluster['certificate-authority-data'] = Buffer.from(o.caPem).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name: user, user: credentials(o) }],
    contexts: [{ name, context: { cluster: name, user } }],
    'current-context': name,
    preferences: {},
  });
}

/** Write the kubeconfig at `path` (mode 0600), creating directories. */
export async function writeKubeconfig(path: string, o: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, renderKubeconfig(o), { mode: 0o600 });
}

function credentials(o: KubeconfigOptions): Record<string, string> {
  const out: Record<string, string> = {};
  if (o.clientCert) {
    out['client-certificate-data'] = Buffer.from(o.clientCert.certPem).toString('base64');
    out['client-key-data'] = Buffer.from(o.clientCert.keyPem).toString('base64');
  }
  if (o.token) out.token = o.token;
  return out;
}
