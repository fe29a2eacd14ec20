/** The official Python client (python3-kubernetes) against the server on etcd. */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEtcd } from '../helpers/etcd.js';
import { run } from '../helpers/run.js';
import { E2E_TOKEN, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let etcd: Awaited<ReturnType<typeof startEtcd>>;
let server: ServerProcess;
beforeAll(async () => {
  etcd = await startEtcd();
  server = await startServerProcess([etcd.endpoint]);
});
afterAll(async () => {
  await server?.stop();
  await etcd?.stop();
});

it('creates, lists, patches, deletes a ConfigMap and watches ADDED/MODIFIED/DELETED', async () => {
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
