/**
 * kubectl 1.33 with a cold cache discovers through aggregated discovery: one request to /api
 * and one to /apis, no per-group-version documents, and then serves the command.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess([]);
});
afterAll(async () => {
  await server?.stop();
});

it('kubectl 1.33 reads aggregated discovery in one request per root', async () => {
  expect(
    (
      await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
        `--kubeconfig=${server.kubeconfig}`,
        'create',
        'configmap',
        'disco',
      ])
    ).code,
  ).toBe(0);
  const cache = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
  const res = await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
    `--kubeconfig=${server.kubeconfig}`,
    `--cache-dir=${cache}`,
    '-v=6',
    'get',
    'configmaps,services',
    '-A',
  ]);
  expect(res.code, res.stderr).toBe(0);
  const gets = [...res.stderr.matchAll(/verb="GET" url="https:\/\/[^/]+([^"?]*)/g)].map((m) => m[1]);
  const discovery = gets.filter(
    (p) =>
      p === '/api' || p === '/apis' || p.startsWith('/api/v1?') || /^\/apis\/[^/]+\/[^/]+$/.test(p) || p === '/api/v1',
  );
  expect(discovery).toEqual(['/api', '/apis']);
  expect(gets).toContain('/api/v1/configmaps');
  expect(res.stdout).toMatch(/default\s+configmap\/disco/);
});
