/**
 * Throughput and latency of ck-apiserver on etcd against a raw etcd baseline, in one run, on
 * this machine. Starts etcd (testcontainers, ETCD_IMAGE) and one server process, then for a
 * fixed number of operations at a fixed concurrency measures: ConfigMap create, get and
 * list (limit 500) through the API over HTTPS (get and list in JSON and in protobuf), and the
 * same shapes (txn create, get, range) straight on etcd. Prints a table. Bounded in count and time; stops everything it starts.
 *
 *   npm run bench            (BENCH_OPS, BENCH_CONCURRENCY to tune)
 */
import { performance } from 'node:perf_hooks';
import { openKvStore } from '../src/storage/kv/open.js';
import { prefixEnd } from '../src/storage/kv/types.js';
import { request } from 'undici';
import { clientFor, type Client } from '../test/helpers/api-client.js';
import { startEtcd } from '../test/helpers/etcd.js';
import { E2E_TOKEN, startServerProcess } from '../test/helpers/server-process.js';

const OPS = Number(process.env.BENCH_OPS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

interface Result {
  name: string;
  ops: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** Run `op(i)` OPS times with CONCURRENCY workers; latencies in milliseconds. */
async function measure(name: string, op: (i: number) => Promise<unknown>): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < OPS) {
        const i = next++;
        const t = performance.now();
        await op(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, ops: OPS, seconds, p50: latencies[Math.floor(latencies.length * 0.5)], p99: latencies[Math.floor(latencies.length * 0.99)] };
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const server = await startServerProcess([etcd.endpoint]);
  const kv = await openKvStore([etcd.endpoint]);
  const api = clientFor(server);
  const results: Result[] = [];
  try {
    const path = '/api/v1/namespaces/default/configmaps';
    const body = (i: number) => ({ metadata: { name: `bench-${i}`, labels: { bench: 'yes' } }, data: { k: 'v'.repeat(64) } });
    results.push(await measure('etcd txn create (baseline)', (i) => kv.create(`/baseline/configmaps/default/bench-${i}`, JSON.stringify(body(i)))));
    results.push(await measure('API create ConfigMap', async (i) => expectStatus(await api.call('POST', path, body(i)), 201)));
    results.push(await measure('etcd get (baseline)', (i) => kv.range({ start: `/baseline/configmaps/default/bench-${i % OPS}` })));
    results.push(await measure('API get ConfigMap', async (i) => expectStatus(await api.call('GET', `${path}/bench-${i % OPS}`), 200)));
    results.push(await measure('API get ConfigMap (protobuf)', async (i) => expectStatus(await getBytes(api, server.url, `${path}/bench-${i % OPS}`, PROTOBUF), 200)));
    const listOps = Math.max(1, Math.floor(OPS / 20));
    const ranges = await measureCount(listOps, 'etcd range 500 keys (baseline)', () => kv.range({ start: '/baseline/', end: prefixEnd('/baseline/'), limit: 500 }));
    results.push(ranges);
    results.push(await measureCount(listOps, 'API list limit=500', async () => expectStatus(await api.call('GET', `${path}?limit=500`), 200)));
    results.push(await measureCount(listOps, 'API list limit=500 (protobuf)', async () => expectStatus(await getBytes(api, server.url, `${path}?limit=500`, PROTOBUF), 200)));
  } finally {
    await api.close();
    await kv.close();
    await server.stop();
    await etcd.stop();
  }
  console.log(`ck-apiserver bench: ${OPS} ops per row (list rows ${Math.max(1, Math.floor(OPS / 20))}), concurrency ${CONCURRENCY}, node ${process.version}`);
  console.log('| operation | ops/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${(r.ops / r.seconds).toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
}

/** Run `op` `n` times one after another (lists are heavy); latencies in milliseconds. */
async function measureCount(n: number, name: string, op: () => Promise<unknown>): Promise<Result> {
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op();
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  return { name, ops: n, seconds: (performance.now() - started) / 1000, p50: latencies[Math.floor(n * 0.5)], p99: latencies[Math.min(n - 1, Math.floor(n * 0.99))] };
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** GET `path` accepting `accept`, reading the body as bytes (not decoded: the server's cost is measured). */
async function getBytes(api: Client, url: string, path: string, accept: string): Promise<{ status: number }> {
  const res = await request(url + path, { dispatcher: api.agent, headers: { authorization: `Bearer ${E2E_TOKEN}`, accept } });
  const bytes = await res.body.arrayBuffer();
  if (bytes.byteLength === 0) throw new Error('empty body');
  return { status: res.statusCode };
}

function expectStatus(res: { status: number }, code: number): void {
  if (res.status !== code) throw new Error(`expected ${code}, got ${res.status}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
