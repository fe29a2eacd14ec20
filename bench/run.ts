/**
 * ck-apiserver against raw etcd, in one run on this machine (`npm run bench`): etcd starts in a
 * container (testcontainers, ETCD_IMAGE) and one server process on it; the bench drives both
 * from this process with the same shapes, and every figure is the median of BENCH_REPS (3)
 * interleaved repetitions (each repetition runs every scenario, API then raw etcd; raw etcd is
 * the etcd3 client from Node with the server's shapes, raw-etcd.ts):
 *  - create and get at concurrency BENCH_CONCURRENCY (64), BENCH_OPS (3,000) each, API and raw
 *    etcd alternating in BENCH_CHUNKS (3) slices, each side after an untimed warm-up of
 *    BENCH_WARMUP (1,000) of the same operation (see compare() in scenarios.ts);
 *  - a list of BENCH_LIST (10,000) ConfigMaps with resourceVersion=0 and without one;
 *  - a list of BENCH_PARSED_LIST (5,000) ConfigMaps of 1 KiB at resourceVersion=0, end to end
 *    with the client's JSON.parse, against a raw range of the same keys with each value parsed
 *    (list-parsed.ts: BENCH_PARSED_TIMES (10) rounds per repetition; details in a second table);
 *  - BENCH_WATCHERS (1,000) watchers while BENCH_WRITE_RATE (100) writes/s for
 *    BENCH_WATCH_SECONDS (30): events missed and delivery p99; the etcd watchers the server holds;
 *  - BENCH_IDLE_WATCHES (10,000) idle watches: server RSS per watch once settled (120 s idle,
 *    see scenarios.ts), and 5 s and 60 s after opening (once, after the repetitions, on a
 *    second, fresh server process, so that heap grown by the other scenarios is not reused).
 * BENCH_QUICK=1 shrinks everything for a smoke run. Prints a Markdown table; stops all it starts.
 */
import { Agent } from 'undici';
import { startEtcd } from '../test/helpers/etcd.js';
import { startBenchServer } from './server.js';
import { rawEtcd } from './raw-etcd.js';
import { jsonClient } from './http2-client.js';
import {
  createThroughput,
  getThroughput,
  idleWatchCost,
  listApi,
  listRaw,
  seedList,
  unexpected,
  type IdleWatchCost,
} from './scenarios.js';
import { median, metricValue } from './stats.js';
import { apiFanout, etcdFanout, type FanoutResult } from './watch-fanout.js';
import { compareParsedList, listClient, printParsedList, seedKibList, type ParsedListResult } from './big-list.js';

const quick = process.env.BENCH_QUICK === '1';
const num = (name: string, full: number, small: number) => Number(process.env[name] ?? (quick ? small : full));
const REPS = num('BENCH_REPS', 3, 1);
const OPS = num('BENCH_OPS', 3000, 500);
const WARMUP = num('BENCH_WARMUP', 1000, 100);
const CHUNKS = num('BENCH_CHUNKS', 3, 1);
const CONCURRENCY = num('BENCH_CONCURRENCY', 64, 64);
const LIST = num('BENCH_LIST', 10_000, 1000);
const WATCHERS = num('BENCH_WATCHERS', 1000, 100);
const RATE = num('BENCH_WRITE_RATE', 100, 100);
const SECONDS = num('BENCH_WATCH_SECONDS', 30, 5);
const IDLE = num('BENCH_IDLE_WATCHES', 10_000, 500);
const PARSED = num('BENCH_PARSED_LIST', 5000, 1000);
const PARSED_TIMES = num('BENCH_PARSED_TIMES', 10, 3);

type Row = [operation: string, api: number[], raw: number[], unit: string, target: string, better: 'higher' | 'lower'];

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const server = await startBenchServer(
    [etcd.endpoint],
    ['--max-requests-inflight=20000', '--max-mutating-requests-inflight=2000'],
  );
  const kv = rawEtcd(etcd.endpoint);
  const target = { url: server.url, caPem: server.caPem, token: server.token };
  const api = jsonClient(target, CONCURRENCY);
  const listAgent = new Agent({ connect: { ca: server.caPem }, connections: 2 });
  const bigList = listClient(target);
  const parsed: ParsedListResult[] = [];
  const etcdWatchers = async () =>
    metricValue(await (await fetch(`${etcd.endpoint}/metrics`)).text(), 'etcd_debugging_mvcc_watcher_total');
  const rows: Record<string, Row> = {};
  const add = (key: string, unit: string, target: string, better: Row[5], a: number, r: number) => {
    rows[key] ??= [key, [], [], unit, target, better];
    rows[key][1].push(a);
    rows[key][2].push(r);
    console.error(`  ${key}: ${a.toFixed(1)} vs ${r.toFixed(1)} ${unit}`);
  };
  const fanouts: { api: FanoutResult[]; raw: FanoutResult[]; held: number[]; added: number[] } = {
    api: [],
    raw: [],
    held: [],
    added: [],
  };
  const idle: IdleWatchCost[] = [];
  try {
    for (const ns of [
      'bench-create',
      'bench-list',
      'bench-idle',
      'bench-parsed',
      ...Array.from({ length: REPS }, (_, r) => `bench-watch-${r}`),
    ]) {
      await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    }
    await seedList(api, kv, 'bench-list', LIST);
    await seedKibList(api, 'bench-parsed', PARSED);
    for (let rep = 0; rep < REPS; rep++) {
      console.error(`repetition ${rep + 1} of ${REPS}`);
      const pid = server.child.pid!;
      const c = await createThroughput(api, kv, pid, 'bench-create', String(rep), OPS, WARMUP, CHUNKS, CONCURRENCY);
      add('create ConfigMap (etcd: create txn)', 'ops/s', '>= 0.6x', 'higher', c.api, c.raw);
      const g = await getThroughput(api, kv, pid, 'bench-create', String(rep), OPS, WARMUP, CHUNKS, CONCURRENCY);
      add('get ConfigMap (etcd: linearizable get)', 'ops/s', '>= 0.6x', 'higher', g.api, g.raw);
      console.error(`  server CPU per op: create ${c.serverCpuUs.toFixed(0)} µs, get ${g.serverCpuUs.toFixed(0)} µs`);
      const raw = await listRaw(kv, 10);
      add(
        `list ${LIST} ConfigMaps, resourceVersion=0 (etcd: range)`,
        'ms',
        '>= 2x faster',
        'lower',
        await listApi(target, listAgent, 'bench-list', '?resourceVersion=0', 10),
        raw,
      );
      add(
        `list ${LIST} ConfigMaps, consistent (etcd: range)`,
        'ms',
        '>= 1.5x faster',
        'lower',
        await listApi(target, listAgent, 'bench-list', '', 10),
        raw,
      );
      const p = await compareParsedList([{ client: bigList, pid }], kv, 'bench-parsed', PARSED, PARSED_TIMES);
      parsed.push(p);
      add(
        `list ${PARSED} ConfigMaps of 1 KiB, resourceVersion=0, parsed by the client (etcd: range, each value parsed)`,
        'ms',
        '>= 1x (no slower)',
        'lower',
        p.api[0].ms,
        p.raw.ms,
      );
      const ns = `bench-watch-${rep}`;
      const start = await api.call('GET', `/api/v1/namespaces/${ns}/configmaps`);
      const base = await etcdWatchers();
      const a = await apiFanout(
        target,
        ns,
        start.body.metadata.resourceVersion,
        WATCHERS,
        RATE,
        SECONDS,
        async (i, t) => {
          const res = await api.call('POST', `/api/v1/namespaces/${ns}/configmaps`, {
            metadata: { name: `fan-${i}` },
            data: { i: String(i), t: String(t) },
          });
          if (res.status !== 201) throw new Error(`create answered ${res.status}`);
        },
        async () => {
          fanouts.held.push(base);
          fanouts.added.push((await etcdWatchers()) - base);
        },
      );
      const r = await etcdFanout(etcd.endpoint, `/bench-raw/watch-${rep}/`, WATCHERS, RATE, SECONDS);
      fanouts.api.push(a);
      fanouts.raw.push(r);
      console.error(`  fan-out p99: ${a.p99.toFixed(1)} vs ${r.p99.toFixed(1)} ms; missed ${a.missed} vs ${r.missed}`);
    }
    // Once, last (closing thousands of connections disturbs what follows), on a fresh server.
    const fresh = await startBenchServer([etcd.endpoint], ['--max-requests-inflight=20000']);
    try {
      idle.push(
        await idleWatchCost(
          { url: fresh.url, caPem: fresh.caPem, token: fresh.token },
          fresh.child.pid!,
          'bench-idle',
          IDLE,
        ),
      );
    } finally {
      await fresh.stop();
    }
  } finally {
    await listAgent.close().catch(() => undefined);
    await bigList.close();
    await api.close();
    kv.close();
    await server.stop();
    await etcd.stop();
  }
  for (const [key, { count, message }] of unexpected)
    console.error(`warning: ${count} requests answered ${key} (first: ${message})`);
  for (const f of [...fanouts.api, ...fanouts.raw])
    if (f.writeFailures) console.error(`warning: ${f.writeFailures} writes failed in a fan-out run`);
  const fmt = (v: number, unit: string) => (unit === 'ms' ? v.toFixed(1) : v.toFixed(0));
  console.log(
    `ck-apiserver bench (${process.version}, ${REPS} interleaved repetitions, medians): ${OPS} ops at concurrency ${CONCURRENCY} (API and etcd alternating in ${CHUNKS} slices, each after ${WARMUP} untimed); lists of ${LIST}; ${WATCHERS} watchers at ${RATE} writes/s for ${SECONDS} s; ${IDLE} idle watches`,
  );
  console.log('| measurement | ck-apiserver | raw etcd | ratio | target |');
  console.log('|---|---:|---:|---:|---|');
  for (const [name, a, r, unit, goal, better] of Object.values(rows)) {
    const [ma, mr] = [median(a), median(r)];
    const ratio = better === 'higher' ? ma / mr : mr / ma;
    console.log(`| ${name} | ${fmt(ma, unit)} ${unit} | ${fmt(mr, unit)} ${unit} | ${ratio.toFixed(2)}x | ${goal} |`);
  }
  const p99a = median(fanouts.api.map((f) => f.p99));
  const p99r = median(fanouts.raw.map((f) => f.p99));
  console.log(
    `| ${WATCHERS} watchers, ${RATE} writes/s: events missed (of ${fanouts.api[0]?.expected}) | ${median(fanouts.api.map((f) => f.missed))} | ${median(fanouts.raw.map((f) => f.missed))} | | 0 |`,
  );
  console.log(
    `| ${WATCHERS} watchers, ${RATE} writes/s: delivery p50 | ${median(fanouts.api.map((f) => f.p50)).toFixed(1)} ms | ${median(fanouts.raw.map((f) => f.p50)).toFixed(1)} ms | | |`,
  );
  console.log(
    `| ${WATCHERS} watchers, ${RATE} writes/s: delivery p99 | ${p99a.toFixed(1)} ms | ${p99r.toFixed(1)} ms | ${(p99a / p99r).toFixed(2)}x of raw | <= 0.5x of raw |`,
  );
  console.log(
    `| etcd watchers the server holds (idle; added by ${WATCHERS} client watches) | ${median(fanouts.held)}; +${median(fanouts.added)} | | | one per resource |`,
  );
  const settled = median(idle.map((c) => c.settled));
  const at = (key: 'afterOpen' | 'afterMinute') => `${median(idle.map((c) => c[key])).toFixed(1)} KiB`;
  console.log(
    `| server RSS per idle watch (${IDLE} watches, settled: 120 s idle; 5 s after opening: ${at('afterOpen')}, 60 s: ${at('afterMinute')}) | ${settled.toFixed(1)} KiB (${((settled * 1024) / 1000).toFixed(1)} KB) | | | <= 10 KB |`,
  );
  console.log('');
  printParsedList(PARSED, ['ck-apiserver, resourceVersion=0'], parsed);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
