/**
 * kubectl against the server on etcd (testcontainers): every corpus manifest is created, read
 * (single, list, -o yaml, -A), labelled, annotated and deleted with the dispatcher kubectl; with it
 * and with kubectl 1.27, `get -w` shows a change made by another client. The corpus is the
 * project's fixtures (test/fixtures/corpus), and kubernetes/examples as well where
 * CK_EXTERNAL_CORPUS names a copy (e.g. ../shared/corpus/examples).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { manifestSets, namespacesOf } from '../fixtures/corpus/sets.js';
import { clientFor } from '../helpers/api-client.js';
import { run } from '../helpers/run.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const KUBECTLS = [
  ['dispatcher', '/usr/bin/kubectl'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;
const SETS = manifestSets();

const started = serversOnEtcd(1);
let server: ServerProcess;
beforeAll(() => {
  server = started.servers[0];
});

describe.each(KUBECTLS)('kubectl (%s)', (label, kubectl) => {
  const k = (...args: string[]) => run(kubectl, [`--kubeconfig=${server.kubeconfig}`, ...args], { timeoutMs: 90_000 });
  // Typed generators (`create namespace|configmap`) send protobuf from kubectl 1.32 on; manifests work everywhere.
  const createFromYaml = (yaml: string) =>
    run(kubectl, [`--kubeconfig=${server.kubeconfig}`, 'create', '--validate=false', '-f', '-'], { input: yaml });
  const namespaceYaml = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;
  const configMapYaml = (name: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

  it('talks to the server: version, api-resources', async () => {
    const version = await k('version', '-o', 'json');
    expect(version.code, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout).serverVersion.gitVersion).toMatch(/^v1\./);
    const resources = await k('api-resources', '--api-group=');
    expect(resources.code, resources.stderr).toBe(0);
    for (const r of ['pods', 'services', 'replicationcontrollers', 'securitycontextconstraints'])
      expect(resources.stdout).toContain(r);
  });

  // The whole corpus with the dispatcher's kubectl; kubectl 1.27 creates, replaces and deletes
  // every manifest in kubectl-validation.test.ts already (the time CI has is bounded).
  if (label === 'dispatcher')
    it.each(SETS.map((set) => [set.name, set.files.length, set] as const))(
      '%s: creates, reads, labels, annotates and deletes all %i manifests',
      async (_name, _count, set) => {
        for (const ns of namespacesOf(set)) await createFromYaml(namespaceYaml(ns));
        const failures: string[] = [];
        for (const rel of set.files) {
          const file = join(set.root, rel);
          if (set.refused[rel]) {
            const res = await k('create', '--validate=false', '-f', file);
            if (res.code === 0 || !res.stderr.includes(set.refused[rel]))
              failures.push(`${rel}: expected to be refused: ${res.stderr.trim()}`);
            continue;
          }
          const steps: string[][] = [
            ['create', '--validate=false', '-f', file],
            ['get', '-f', file],
            ['get', '-f', file, '-o', 'yaml'],
            ['label', '-f', file, 'e2e=yes', '--overwrite'],
            ['annotate', '-f', file, 'e2e/note=checked', '--overwrite'],
            ['delete', '-f', file, '--wait=true', '--timeout=60s'],
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
      },
    );

  it('lists across namespaces with -A, and get pods -w stays in sync with churn from another client', async () => {
    expect((await createFromYaml(configMapYaml('listed'))).code).toBe(0);
    expect((await k('get', 'configmaps', '-A')).stdout).toContain('listed');
    const api = clientFor(server);
    const path = '/api/v1/namespaces/default/pods';
    const pod = (name: string, i: number) => ({
      metadata: { name, labels: { i: String(i) } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect((await api.call('POST', path, pod('first', 0))).status).toBe(201);
    const watcher = spawn(
      kubectl,
      [`--kubeconfig=${server.kubeconfig}`, 'get', 'pods', '-w', '--output-watch-events', '-o', 'json'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
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
        else if (i % 3 === 1)
          await api.call(
            'PATCH',
            `${path}/${name}`,
            { metadata: { labels: { i: String(i) } } },
            'application/merge-patch+json',
          );
        else await api.call('DELETE', `${path}/${name}`);
      }
      expect((await api.call('POST', path, pod('last', 0))).status).toBe(201);
      await waitFor(() => events().some((e) => e.object.metadata.name === 'last'), 15_000);
      /** Each pod's resourceVersion as the watch has shown it so far. */
      const watched = () => {
        const state = new Map<string, string>();
        for (const e of events()) {
          if (e.type === 'DELETED') state.delete(e.object.metadata.name);
          else state.set(e.object.metadata.name, e.object.metadata.resourceVersion);
        }
        return Object.fromEntries(state);
      };
      const truth = await api.call('GET', path);
      const listed = Object.fromEntries(
        truth.body.items.map((i: any) => [i.metadata.name, i.metadata.resourceVersion]),
      );
      // Writes by the server's own controllers (a pod's scheduling status) may still be on their
      // way to the watch when the list is read: give the watch time to reach the list's state.
      await waitFor(() => isDeepStrictEqual(watched(), listed), 15_000).catch(() => undefined);
      expect(watched()).toEqual(listed);
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
