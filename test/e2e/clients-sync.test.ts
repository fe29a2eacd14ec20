/**
 * Real clients keep an exact cache through churn and compaction: a @kubernetes/client-node
 * informer and a Python list-watch loop, against a server whose watches end every 2-4 s and
 * whose etcd history is compacted every second. Through the watch cache (the default) they
 * resume from its 75 s window; without it (--watch-cache=false) resuming from a stale
 * resourceVersion meets 410 and the clients must relist.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import { E2E_TOKEN, type ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const NS = 'sync';
const path = `/api/v1/namespaces/${NS}/configmaps`;

async function writes(api: Client, count: number, offset: number, live: Set<string>) {
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    const names = [...live];
    if (n % 3 === 0 || names.length < 10) {
      const name = `cm-${n}`;
      if ((await api.call('POST', path, { metadata: { name }, data: { n: String(n) } })).status === 201) live.add(name);
    } else if (n % 3 === 1) {
      await api.call(
        'PATCH',
        `${path}/${names[n % names.length]}`,
        { data: { n: String(n) } },
        'application/merge-patch+json',
      );
    } else {
      const name = names[n % names.length];
      if ((await api.call('DELETE', `${path}/${name}`)).status === 200) live.delete(name);
    }
  }
}

for (const cached of [true, false]) {
  describe(cached ? 'through the watch cache' : 'without a watch cache', () => {
    const started = serversOnEtcd(1, [
      '--min-request-timeout=2',
      '--etcd-compaction-interval=1s',
      `--watch-cache=${cached}`,
    ]);
    let api: Client;
    beforeAll(async () => {
      api = clientFor(started.servers[0]);
      expect((await api.call('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    });
    afterAll(async () => api?.close());
    it(`a client-node informer and a Python list-watch loop match the server after churn${cached ? '' : ' and 410s'}`, () =>
      scenario(started.servers[0], api, cached));
  });
}

async function scenario(server: ServerProcess, api: Client, throughCache: boolean): Promise<void> {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(server.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  let lists = 0;
  const informer = k8s.makeInformer(kc, path, () => {
    lists++;
    return core.listNamespacedConfigMap({ namespace: NS });
  });
  const errors: unknown[] = [];
  let stopping = false;
  informer.on('error', (err) => {
    if (stopping) return; // stop() aborts the open watch
    errors.push(err);
    setTimeout(() => void informer.start(), 500);
  });
  await informer.start();

  const caFile = join(server.dir, 'py-ca.crt');
  await writeFile(caFile, server.caPem);
  const script = resolve(import.meta.dirname, 'python/informer_loop.py');
  const py = spawn('/usr/bin/python3', [script, server.url, E2E_TOKEN, caFile, NS, 'zz-sentinel'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let pyOut = '';
  let pyErr = '';
  py.stdout.on('data', (d) => (pyOut += d));
  py.stderr.on('data', (d) => (pyErr += d));
  const pyDone = new Promise<number>((r) => py.on('close', (code) => r(code ?? -1)));

  const live = new Set<string>();
  await writes(api, 400, 0, live);
  await new Promise((r) => setTimeout(r, 8000)); // quiet: history is compacted past every client's resourceVersion
  await writes(api, 400, 400, live);
  await api.call('POST', path, { metadata: { name: 'zz-sentinel' }, data: { n: 'end' } });

  const truth = await api.call('GET', path);
  const expected = Object.fromEntries(truth.body.items.map((i: any) => [i.metadata.name, i.data?.n ?? null]));
  const deadline = Date.now() + 30_000;
  while (!informer.get('zz-sentinel', NS) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const cached = Object.fromEntries(informer.list(NS).map((o) => [o.metadata!.name!, o.data?.n ?? null]));
  stopping = true;
  await informer.stop();
  expect(errors).toEqual([]);
  expect(cached).toEqual(expected);
  // Without the cache the clients relisted after 410s; through it they resumed from its window.
  if (!throughCache) expect(lists).toBeGreaterThanOrEqual(2);

  expect(await pyDone, pyErr).toBe(0);
  const pyResult = JSON.parse(pyOut.trim().split('\n').pop()!);
  expect(pyResult.cache).toEqual(expected);
  if (!throughCache) expect(pyResult.stats.expired).toBeGreaterThanOrEqual(1);
}
