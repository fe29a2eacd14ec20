/** The admin kubeconfig kubectl uses as is: the server URL, the CA and a bearer token. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  readonly server: string;
  readonly caPem: string;
  readonly token: string;
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
    users: [{ name: user, user: { token: o.token } }],
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
