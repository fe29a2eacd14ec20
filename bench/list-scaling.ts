/**
 * Does a consistent list cost what it returns, or what the resource holds? (`npm run
 * bench:list-scaling`, after `npm run build`.) etcd starts in a container (ETCD_IMAGE) with one
 * server on it. A namespace holds BENCH_SMALL (1,000) ConfigMaps of 1 KiB; the bench lists it
 * without a resourceVersion (a consistent list) for BENCH_LIST_SECONDS (10) per phase while a
 * Lease elsewhere is written 10 times a second (so storage's revision keeps moving past the
 * ConfigMaps' cache, as on a live cluster), and with resourceVersion=0 (the cache alone, for
 * comparison), first with nothing else in the resource, then after
 * BENCH_OTHERS (100,000) ConfigMaps were written into 100 other namespaces (straight into etcd,
 * as another replica's writes would arrive). It prints lists per second in each phase, their
 * ratio (target >= 0.9x), and the etcd reads the server made per list (from its
 * etcd_request_duration_seconds counts). BENCH_QUICK=1 shrinks it. Stops all it starts.
 */
import { Agent, request } from 'undici';
import { startEtcd } from '../test/helpers/etcd.js';
import { rawEtcd } from './raw-etcd.js';
import { startBenchServer, type BenchServer } from './server.js';
import { sleep, throughput } from './stats.js';

const quick = process.env.BENCH_QUICK === '1';
const num = (name: string, full: number, small: number) => Number(process.env[name] ?? (quick ? small : full));
const SMALL = num('BENCH_SMALL', 1000, 200);
const OTHERS = num('BENCH_OTHERS', 100_000, 5000);
const SECONDS = num('BENCH_LIST_SECONDS', 10, 3);
const NS = 'scaling';

const configMap = (name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, uid: `uid-${namespace}-${name}`, creationTimestamp: '2026-11-28T00:00:00Z' },
  data: { value: 'x'.repeat(1024) },
});

/** The server's etcd request counts by operation for ConfigMaps. */
async function etcdReads(server: BenchServer, agent: Agent): Promise<Record<string, number>> {
  const res = await request(`${server.url}/metrics`, {
    dispatcher: agent,
    headers: { authorization: `Bearer ${server.token}` },
  });
  const text = await res.body.text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^etcd_request_duration_seconds_count\{([^}]*)\} (\d+)/gm)) {
    const labels = m[1]!;
    const op = /operation="([^"]+)"/.exec(labels)?.[1] ?? '';
    const type = /type="([^"]*)"/.exec(labels)?.[1] ?? '';
    if (type === 'configmaps' || type === '') out[`${op}${type ? '' : ' (no resource)'}`] = Number(m[2]);
  }
  return out;
}

/** Lists per second, and how many were made. */
interface Rate {
  readonly rate: number;
  readonly lists: number;
}

/** Lists of the namespace (consistent, or with `query`) for `seconds`, one at a time: lists per second. */
async function listRate(server: BenchServer, agent: Agent, seconds: number, query = ''): Promise<Rate> {
  const end = performance.now() + seconds * 1000;
  let lists = 0;
  while (performance.now() < end) {
    const res = await request(`${server.url}/api/v1/namespaces/${NS}/configmaps${query}`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${server.token}` },
    });
    const body = (await res.body.json()) as { items?: unknown[] };
    if (res.statusCode !== 200 || body.items?.length !== SMALL) throw new Error(`list answered ${res.statusCode}`);
    lists++;
  }
  return { rate: lists / seconds, lists };
}

/** Reads per list between two metric snapshots. */
function perList(before: Record<string, number>, after: Record<string, number>, lists: number): string {
  return Object.keys(after)
    .map((op) => [op, ((after[op]! - (before[op] ?? 0)) / lists).toFixed(2)] as const)
    .filter(([, n]) => n !== '0.00')
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const server = await startBenchServer([etcd.endpoint], ['--max-requests-inflight=20000']);
  const kv = rawEtcd(etcd.endpoint);
  const agent = new Agent({ connect: { ca: server.caPem }, connections: 4 });
  const stopWriter = new AbortController();
  try {
    const api = (method: string, path: string, body?: unknown) =>
      request(`${server.url}${path}`, {
        method: method as 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.statusCode, text: await r.body.text() }));
    for (const ns of [NS, 'leases-elsewhere']) await api('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await throughput(SMALL, 32, async (i) => {
      const res = await api('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap(`s-${i}`, NS));
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
    });
    // Storage's revision moves on elsewhere, as leases and events move it on a live cluster.
    const lease = '/apis/coordination.k8s.io/v1/namespaces/leases-elsewhere/leases';
    await api('POST', lease, { metadata: { name: 'holder' }, spec: { holderIdentity: 'a' } });
    const writer = (async () => {
      for (let i = 0; !stopWriter.signal.aborted; i++) {
        await api('PATCH', `${lease}/holder`, { spec: { holderIdentity: `a-${i}` } }).catch(() => undefined);
        await sleep(100);
      }
    })();

    const before = await etcdReads(server, agent);
    const empty = await listRate(server, agent, SECONDS);
    const afterEmpty = await etcdReads(server, agent);
    const emptyCached = await listRate(server, agent, SECONDS, '?resourceVersion=0');

    const t = performance.now();
    await throughput(OTHERS, 64, (i) =>
      kv.create(
        `/registry/configmaps/other-${i % 100}/o-${i}`,
        JSON.stringify(configMap(`o-${i}`, `other-${i % 100}`)),
      ),
    );
    const seeded = (performance.now() - t) / 1000;
    await sleep(2000); // the cache takes the new objects in through its watch
    const beforeFull = await etcdReads(server, agent);
    const full = await listRate(server, agent, SECONDS);
    const afterFull = await etcdReads(server, agent);
    const fullCached = await listRate(server, agent, SECONDS, '?resourceVersion=0');
    stopWriter.abort();
    await writer;

    console.log(
      `ck-apiserver list scaling (${process.version}): consistent lists of ${SMALL} ConfigMaps (1 KiB) for ${SECONDS} s per phase, a Lease written 10/s elsewhere; ${OTHERS} ConfigMaps seeded in other namespaces in ${seeded.toFixed(0)} s`,
    );
    console.log('');
    console.log('| phase | consistent lists/s | etcd requests per consistent list | lists/s at resourceVersion=0 |');
    console.log('|---|---:|---|---:|');
    const row = (phase: string, rate: Rate, reads: string, cached: Rate) =>
      console.log(`| ${phase} | ${rate.rate.toFixed(1)} | ${reads} | ${cached.rate.toFixed(1)} |`);
    row('resource otherwise empty', empty, perList(before, afterEmpty, empty.lists), emptyCached);
    row(`${OTHERS} ConfigMaps in other namespaces`, full, perList(beforeFull, afterFull, full.lists), fullCached);
    console.log(
      `| ratio | ${(full.rate / empty.rate).toFixed(2)}x (target >= 0.9x) | | ${(fullCached.rate / emptyCached.rate).toFixed(2)}x |`,
    );
  } finally {
    stopWriter.abort();
    await agent.close().catch(() => undefined);
    await server.stop();
    await etcd.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
