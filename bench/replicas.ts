/**
 * Server CPU per operation and ops per replica core, with 1, 2 and 4 replicas on one etcd
 * (`npm run bench:replicas`, after `npm run build`; BENCH_DIST runs another build). etcd starts
 * in a container (ETCD_IMAGE); for each repetition (BENCH_REPS, 3) and each replica count
 * (BENCH_REPLICAS, "1,2,4"), that many server processes start on it (bench/server.ts), the bench
 * spreads its requests over them in turn (one HTTP/2 connection each, BENCH_CONCURRENCY (64) in
 * flight in all) and runs replica-ops.ts: create, get, update, a list of BENCH_LIST_ITEMS (50)
 * ConfigMaps consistent and at resourceVersion=0, BENCH_OPS (3,000; lists half as many) of each
 * per side, API and raw etcd alternating in BENCH_CHUNKS (3) slices after BENCH_WARMUP (1,000)
 * untimed; then the replicas stop. Repetitions interleave the replica counts, so a slow spell of
 * the shared machine falls on all of them. BENCH_AB=<dist directory>[,...] measures those builds
 * too (a "before"), each replica count of each build in turn within every repetition.
 *
 * Per operation and replica count (medians of the repetitions): the API's and raw etcd's ops/s
 * and their ratio; server CPU µs per op (the replicas' CPU time, user + system from
 * /proc/<pid>/stat, summed, over the API's ops); the replicas' cores busy (their CPU seconds per
 * second); and ops per replica core (ops/s over cores busy, which is 1,000,000 / µs per op).
 * On a machine with fewer cores than replicas plus etcd plus the bench, replicas share cores:
 * ops/s then stops growing with replicas, while CPU µs per op is the figure that carries over to
 * a bigger machine. BENCH_QUICK=1 shrinks it. Prints a Markdown table; stops all it starts.
 */
import { startEtcd } from '../test/helpers/etcd.js';
import { jsonClient, spreadClient } from './http2-client.js';
import { rawEtcd } from './raw-etcd.js';
import { REPLICA_OPERATIONS, replicaOps, type ReplicaOperation } from './replica-ops.js';
import { unexpected, type Throughput } from './scenarios.js';
import { BUILD, startBenchServer, type BenchServer } from './server.js';
import { median } from './stats.js';

const quick = process.env.BENCH_QUICK === '1';
const num = (name: string, full: number, small: number) => Number(process.env[name] ?? (quick ? small : full));
const REPS = num('BENCH_REPS', 3, 1);
const OPS = num('BENCH_OPS', 3000, 400);
const WARMUP = num('BENCH_WARMUP', 1000, 100);
const CHUNKS = num('BENCH_CHUNKS', 3, 1);
const CONCURRENCY = num('BENCH_CONCURRENCY', 64, 64);
const LIST_ITEMS = num('BENCH_LIST_ITEMS', 50, 50);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2,4').split(',').map(Number);
const BUILDS = [BUILD, ...(process.env.BENCH_AB ? process.env.BENCH_AB.split(',') : [])];

/** Start `n` replicas of `build` on `etcd` (in parallel); on a failure, stop those that started and throw. */
async function startReplicas(etcd: string, n: number, build: string): Promise<BenchServer[]> {
  const started = await Promise.allSettled(
    Array.from({ length: n }, () =>
      startBenchServer([etcd], ['--max-requests-inflight=20000', '--max-mutating-requests-inflight=2000'], build),
    ),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  return servers;
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const kv = rawEtcd(etcd.endpoint);
  const results = new Map<string, Throughput[]>();
  const keyOf = (build: string, op: ReplicaOperation, n: number) => `${build}|${op}|${n}`;
  try {
    for (let rep = 0; rep < REPS; rep++) {
      for (const [n, build] of REPLICAS.flatMap((n) => BUILDS.map((b) => [n, b] as const))) {
        const servers = await startReplicas(etcd.endpoint, n, build);
        const api = spreadClient(
          servers.map((s) => jsonClient({ url: s.url, caPem: s.caPem, token: s.token }, CONCURRENCY)),
        );
        try {
          const pids = servers.map((s) => s.child.pid!);
          const out = await replicaOps(api, kv, pids, `${rep}-${n}-${BUILDS.indexOf(build)}`, {
            ops: OPS,
            warmup: WARMUP,
            chunks: CHUNKS,
            concurrency: CONCURRENCY,
            listItems: LIST_ITEMS,
          });
          for (const op of REPLICA_OPERATIONS) {
            const t = out[op];
            const key = keyOf(build, op, n);
            results.set(key, [...(results.get(key) ?? []), t]);
            console.error(
              `rep ${rep + 1}, ${build}, ${n} replica(s), ${op}: ${t.api.toFixed(0)} vs ${t.raw.toFixed(0)} ops/s, ${t.serverCpuUs.toFixed(0)} µs/op, ${t.serverCores.toFixed(2)} cores`,
            );
          }
        } finally {
          await api.close();
          await Promise.all(servers.map((s) => s.stop()));
        }
      }
    }
  } finally {
    kv.close();
    await etcd.stop();
  }
  for (const [key, { count, message }] of unexpected)
    console.error(`warning: ${count} requests answered ${key} (first: ${message})`);
  console.log(
    `ck-apiserver replicas (${process.version}; ${REPS} interleaved repetitions, medians): ${OPS} ops per side at concurrency ${CONCURRENCY} (lists ${Math.max(1, Math.floor(OPS / 2))}, of ${LIST_ITEMS} ConfigMaps), API and etcd alternating in ${CHUNKS} slices, each after ${WARMUP} untimed; one etcd`,
  );
  for (const build of BUILDS) {
    console.log('');
    console.log(`build ${build}:`);
    console.log('');
    console.log(
      '| operation | replicas | ck-apiserver | raw etcd | ratio | server CPU per op | ops per replica core | replica cores busy |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const op of REPLICA_OPERATIONS) {
      for (const n of REPLICAS) {
        const runs = results.get(keyOf(build, op, n)) ?? [];
        const m = (f: (t: Throughput) => number) => median(runs.map(f));
        console.log(
          `| ${op} | ${n} | ${m((t) => t.api).toFixed(0)} ops/s | ${m((t) => t.raw).toFixed(0)} ops/s | ${m((t) => t.api / t.raw).toFixed(2)}x | ${m((t) => t.serverCpuUs).toFixed(0)} µs | ${m((t) => t.api / t.serverCores).toFixed(0)} | ${m((t) => t.serverCores).toFixed(2)} |`,
        );
      }
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
