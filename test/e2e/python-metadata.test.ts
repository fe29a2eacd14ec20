/** The official Python client's metadata-only scenario against the server (PartialObjectMetadataList). */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { E2E_TOKEN, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess([]);
});
afterAll(async () => {
  await server?.stop();
});

it("passes the Python client's own test_node_apis_partial_object_metadata steps", async () => {
  const caFile = join(server.dir, 'py-ca.crt');
  await writeFile(caFile, server.caPem);
  const res = await run(
    '/usr/bin/python3',
    [resolve(import.meta.dirname, 'python/partial_metadata.py'), server.url, E2E_TOKEN, caFile],
    { timeoutMs: 60_000 },
  );
  expect(res.code, res.stderr).toBe(0);
  const out = JSON.parse(res.stdout.trim().split('\n').pop()!);
  expect(out).toEqual(
    ['v1', 'v1beta1', 'v1', 'v1beta1'].map((v) => ({
      kind: 'PartialObjectMetadataList',
      apiVersion: `meta.k8s.io/${v}`,
      items: [['PartialObjectMetadata', `meta.k8s.io/${v}`, 'py-node', null, null]],
    })),
  );
});
