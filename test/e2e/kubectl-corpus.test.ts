/**
 * kubectl against the server on etcd (testcontainers): every manifest of the shared corpus is
 * created, read (single, list, -o yaml, -A), labelled, annotated and deleted, with the
 * dispatcher kubectl and with kubectl 1.27; `get -w` shows a change made by another client.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFileSync } from 'node:fs';
import { clientFor } from '../helpers/api-client.js';
import { run } from '../helpers/run.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/examples');
const KUBECTLS = [
  ['dispatcher', '/usr/bin/kubectl'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;

function manifests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...manifests(p));
    else if (/\.(ya?ml|json)$/.test(entry)) out.push(p);
  }
  return out;
}

interface Manifest {
  file: string;
  namespaces: string[];
  isNamespace: boolean;
}

function describeManifest(file: string): Manifest {
  const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJSON()).filter(Boolean);
  return {
    file,
    namespaces: docs.map((d: any) => d.metadata?.namespace).filter((n: unknown): n is string => typeof n === 'string'),
    isNamespace: docs.some((d: any) => d.kind === 'Namespace'),
  };
}

const all = manifests(CORPUS).map(describeManifest);
/** Manifests upstream 1.10 refuses (test/integration/corpus.test.ts says why), with its message. */
const REFUSED_BY_1_10: Record<string, string> = {
  '_archived/sysdig-cloud/sysdig-rc.yaml': 'spec.selector: Required value',
};

const started = serversOnEtcd(1);
let server: ServerProcess;
beforeAll(() => {
  server = started.servers[0];
});

describe.each(KUBECTLS)('kubectl (%s)', (_label, kubectl) => {
  const k = (...args: string[]) => run(kubectl, [`--kubeconfig=${server.kubeconfig}`, ...args], { timeoutMs: 90_000 });
  // Typed generators (`create namespace|configmap`) send protobuf from kubectl 1.32 on; manifests work everywhere.
  const createFromYaml = (yaml: string) => run(kubectl, [`--kubeconfig=${server.kubeconfig}`, 'create', '--validate=false', '-f', '-'], { input: yaml });
  const namespaceYaml = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;
  const configMapYaml = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

  it('talks to the server: version, api-resources', async () => {
    const version = await k('version', '-o', 'json');
    expect(version.code, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout).serverVersion.gitVersion).toMatch(/^v1\./);
    const resources = await k('api-resources', '--api-group=');
    expect(resources.code, resources.stderr).toBe(0);
    for (const r of ['pods', 'services', 'replicationcontrollers', 'securitycontextconstraints']) expect(resources.stdout).toContain(r);
  });

  it(`creates, reads, labels, annotates and deletes all ${all.length} corpus manifests`, async () => {
    const failures: string[] = [];
    for (const m of all) {
      const rel = relative(CORPUS, m.file);
      for (const ns of m.namespaces) if (ns !== 'default') await createFromYaml(namespaceYaml(ns));
      if (REFUSED_BY_1_10[rel]) {
        const res = await k('create', '--validate=false', '-f', m.file);
        if (res.code === 0 || !res.stderr.includes(REFUSED_BY_1_10[rel])) failures.push(`${rel}: expected to be refused: ${res.stderr.trim()}`);
        continue;
      }
      const steps: string[][] = [
        ['create', '--validate=false', '-f', m.file],
        ['get', '-f', m.file],
        ['get', '-f', m.file, '-o', 'yaml'],
        ['label', '-f', m.file, 'e2e=yes', '--overwrite'],
        ['annotate', '-f', m.file, 'e2e/note=checked', '--overwrite'],
        ['delete', '-f', m.file, '--wait=true', '--timeout=60s'],
      ];
      for (const step of steps) {
        const res = await k(...step);
        if (res.code !== 0) {
          failures.push(`${rel}: kubectl ${step[0]}: ${res.stderr.trim()}`);
          break;
        }
        if (step[0] === 'get' && step.includes('yaml')) expect(res.stdout).toMatch(/resourceVersion: "\d+"/);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lists across namespaces with -A, and get pods -w stays in sync with churn from another client', async () => {
    expect((await createFromYaml(configMapYaml('listed'))).code).toBe(0);
    expect((await k('get', 'configmaps', '-A')).stdout).toContain('listed');
    const api = clientFor(server);
    const path = '/api/v1/namespaces/default/pods';
    const pod = (name: string, i: number) => ({ metadata: { name, labels: { i: String(i) } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect((await api.call('POST', path, pod('first', 0))).status).toBe(201);
    const watcher = spawn(kubectl, [`--kubeconfig=${server.kubeconfig}`, 'get', 'pods', '-w', '--output-watch-events', '-o', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    watcher.stdout.on('data', (d) => (out += d.toString()));
    // With --output-watch-events, kubectl prints one {type, object} JSON per line; the text
    // after the last newline is a line still being written.
    const events = () =>
      out
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as { type: string; object: any });
    try {
      await waitFor(() => events().some((e) => e.object.metadata.name === 'first'), 15_000);
      for (let i = 0; i < 150; i++) {
        const name = `churn-${i % 20}`;
        if (i % 3 === 0) await api.call('POST', path, pod(name, i));
        else if (i % 3 === 1) await api.call('PATCH', `${path}/${name}`, { metadata: { labels: { i: String(i) } } }, 'application/merge-patch+json');
        else await api.call('DELETE', `${path}/${name}`);
      }
      expect((await api.call('POST', path, pod('last', 0))).status).toBe(201);
      await waitFor(() => events().some((e) => e.object.metadata.name === 'last'), 15_000);
      const state = new Map<string, string>();
      for (const e of events()) {
        if (e.type === 'DELETED') state.delete(e.object.metadata.name);
        else state.set(e.object.metadata.name, e.object.metadata.resourceVersion);
      }
      const truth = await api.call('GET', path);
      expect(Object.fromEntries(state)).toEqual(Object.fromEntries(truth.body.items.map((i: any) => [i.metadata.name, i.metadata.resourceVersion])));
    } finally {
      watcher.kill('SIGTERM');
      await api.close();
      await k('delete', 'pods,configmaps', '--all', '--wait=false');
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
