/** The official Python client (python3-kubernetes) against the server on etcd. */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { E2E_TOKEN } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);

it('creates, lists, patches, deletes a ConfigMap and watches ADDED/MODIFIED/DELETED', async () => {
  const server = started.servers[0];
  const caFile = join(server.dir, 'py-ca.crt');
  await writeFile(caFile, server.caPem);
  const script = resolve(import.meta.dirname, 'python/configmap_flow.py');
  const res = await run('/usr/bin/python3', [script, server.url, E2E_TOKEN, caFile], { timeoutMs: 60_000 });
  expect(res.code, res.stderr).toBe(0);
  const out = JSON.parse(res.stdout.trim().split('\n').pop()!);
  expect(out.listed).toEqual(['py-cm']);
  expect(out.patched).toEqual({ k: 'patched' });
  expect(out.missing).toBe(404);
  expect(out.events.map((e: unknown[]) => e[0])).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
  expect(out.events[0][1]).toBe(out.created_rv);
  expect(out.events[1][2]).toEqual({ k: 'patched' });
});

it('drives Deployments (and their scale), Jobs, Leases, PodDisruptionBudgets and Ingresses', async () => {
  const server = started.servers[0];
  const caFile = join(server.dir, 'py-ca.crt');
  await writeFile(caFile, server.caPem);
  const script = resolve(import.meta.dirname, 'python/apps_flow.py');
  const res = await run('/usr/bin/python3', [script, server.url, E2E_TOKEN, caFile], { timeoutMs: 60_000 });
  expect(res.code, res.stderr).toBe(0);
  expect(JSON.parse(res.stdout.trim().split('\n').pop()!)).toEqual({
    strategy: 'RollingUpdate',
    scaled: 4,
    replicas: 4,
    generation: 2,
    listed: ['py-web'],
    job_backoff: 6,
    holder: 'b',
    stale: 409,
    pdb: 1,
    ingress_port: 80,
  });
});
