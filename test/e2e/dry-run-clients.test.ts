/**
 * Server-side dry runs with real clients on etcd: `kubectl diff`, `create|apply|delete
 * --dry-run=server` with kubectl 1.33 and 1.27 leave every stored object exactly as it was
 * (whole objects and resourceVersions compared), and so do the Python client's dry_run='All'
 * calls; a dry-run Service create keeps no cluster IP.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFor } from '../helpers/api-client.js';
import { run } from '../helpers/run.js';
import { E2E_TOKEN } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);
const KUBECTLS = [
  ['1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;

const cmYaml = (name: string, value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: "${value}"\n`;

/** Every ConfigMap and Service of the default namespace, whole, as stored. */
async function snapshot(): Promise<unknown[]> {
  const api = clientFor(started.servers[0]);
  try {
    const items = [];
    for (const kind of ['configmaps', 'services'])
      items.push(...(await api.call('GET', `/api/v1/namespaces/default/${kind}`)).body.items);
    return items;
  } finally {
    await api.close();
  }
}

describe.each(KUBECTLS)('kubectl %s', (label, kubectl) => {
  const k = (...args: string[]) => run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args]);
  const name = `dry-${label.replace('.', '')}`;

  it('diff, create, apply and delete --dry-run=server change nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dry-'));
    const [v1, v2, fresh] = [join(dir, 'v1.yaml'), join(dir, 'v2.yaml'), join(dir, 'new.yaml')];
    await writeFile(v1, cmYaml(name, 'one'));
    await writeFile(v2, cmYaml(name, 'two'));
    await writeFile(fresh, cmYaml(`${name}-new`, 'x'));
    expect((await k('apply', '-f', v1)).code).toBe(0);
    const before = await snapshot();

    const diff = await k('diff', '-f', v2);
    expect(diff.code, diff.stderr).toBe(1); // 1: differences found
    expect(diff.stdout).toMatch(/-\s+k: one/);
    expect(diff.stdout).toMatch(/\+\s+k: two/);
    const diffNew = await k('diff', '-f', fresh);
    expect(diffNew.code, diffNew.stderr).toBe(1);

    const outputs = [];
    for (const args of [
      ['create', '-f', fresh, '--dry-run=server'],
      ['apply', '-f', fresh, '--dry-run=server'],
      ['apply', '-f', v2, '--dry-run=server'],
      ['delete', 'configmap', name, '--dry-run=server'],
    ]) {
      const res = await k(...args);
      expect(res.code, res.stderr).toBe(0);
      outputs.push(res.stdout.trim());
    }
    expect(outputs).toEqual([
      `configmap/${name}-new created (server dry run)`,
      `configmap/${name}-new created (server dry run)`,
      `configmap/${name} configured (server dry run)`,
      `configmap "${name}" deleted (server dry run)`,
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('a dry-run Service create shows an IP but keeps none', async () => {
    const ip = label === '1.33' ? '10.0.0.133' : '10.0.0.127';
    const dir = await mkdtemp(join(tmpdir(), 'dry-svc-'));
    const svc = (n: string) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${n}\nspec:\n  clusterIP: ${ip}\n  ports:\n  - port: 80\n`;
    await writeFile(join(dir, 'dry.yaml'), svc(`${name}-svc`));
    await writeFile(join(dir, 'real.yaml'), svc(`${name}-real`));
    const dry = await k('create', '-f', join(dir, 'dry.yaml'), '--dry-run=server', '-o', 'json');
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).spec.clusterIP).toBe(ip);
    expect((await k('get', 'service', `${name}-svc`)).code).not.toBe(0);
    const real = await k('create', '-f', join(dir, 'real.yaml'));
    expect(real.code, real.stderr).toBe(0);
  });
});

it('the Python client with dry_run="All" changes nothing', async () => {
  const server = started.servers[0];
  const caFile = join(server.dir, 'py-ca.crt');
  await writeFile(caFile, server.caPem);
  const before = await snapshot();
  const res = await run(
    '/usr/bin/python3',
    [resolve(import.meta.dirname, 'python/dry_run.py'), server.url, E2E_TOKEN, caFile],
    { timeoutMs: 60_000 },
  );
  expect(res.code, res.stderr).toBe(0);
  const out = JSON.parse(res.stdout.trim().split('\n').pop()!);
  expect(out.created).toEqual({ name: 'py-dry-new', uid: true, rv: null });
  expect(out.created_stored).toBe(404);
  expect(out.replaced).toEqual({ k: 'replaced' });
  expect(out.patched).toEqual({ k: 'patched' });
  expect(out.unchanged).toBe(true);
  expect(out.bogus).toBe(422);
  expect(out.svc_ip).toBe('10.0.0.99');
  expect(out.real_svc_ip).toBe('10.0.0.99');
  // Only what the script really created is new: py-dry and py-real-svc.
  const after = (await snapshot()) as { metadata: { name: string } }[];
  expect(after.filter((o) => !['py-dry', 'py-real-svc'].includes(o.metadata.name))).toEqual(before);
});
