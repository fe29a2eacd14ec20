/**
 * Server CPU per request, by operation (`npx tsx bench/profile-ops.ts`, after `npm run build`):
 * a server process (bench/server.ts) on its own etcd, driven over HTTP/2 (bench/http2-client.ts)
 * at PROFILE_CONCURRENCY (64) requests in flight. After a first untimed round of every operation,
 * each of PROFILE_REPS (3) rounds runs, each operation after an untimed warm-up of PROFILE_WARMUP
 * (500) of the same:
 *  - version: PROFILE_OPS (3,000) GETs of /version (the floor: HTTP/2, TLS and the middleware);
 *  - create: as many ConfigMap creates (POST);
 *  - get: as many GETs of them (no resourceVersion: a linearizable read of etcd);
 *  - update: as many PUTs of them, each with the resourceVersion of that object's last write;
 *  - list-50: PROFILE_LIST_OPS (1,000) lists of a namespace of 50 ConfigMaps, without a
 *    resourceVersion (consistent) and with resourceVersion=0 (the watch cache).
 * The figure is the server process's CPU time (the time its threads ran, see cpuUs) over the
 * timed operations, in µs per operation; the table gives the median of the rounds (and the range).
 *
 * PROFILE_AB=<dist directory>[,<another>...] compares builds: a server of each (the "before",
 * e.g. a copy of `dist/` made before a change) runs beside the first (BENCH_DIST or `dist/`), each
 * on its own etcd, and every timed slice runs on all of them at once (each with its own clients),
 * so that a busy spell of the machine falls on each alike; the ratios compare them round by
 * round (the median of the per-round ratios). Use more rounds (PROFILE_REPS=10).
 *
 * etcd: PROFILE_ETCD=binary (the default when `etcd` is on PATH) runs the local etcd binary on a
 * temporary directory (under /dev/shm when present) without fsync; PROFILE_ETCD=container uses
 * test/helpers/etcd.ts (Docker, ETCD_IMAGE). PROFILE_ONLY=get,create limits the operations.
 * PROFILE_DIR=<dir> runs the server with `--cpu-prof` into <dir> and then prints, per operation,
 * the top self-time functions of the timed windows only (bench/profile-summary.ts).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startAnyEtcd, type Etcd } from './etcd-any.js';
import { jsonClient, type JsonClient } from './http2-client.js';
import { BUILD, startBenchServer, type BenchServer } from './server.js';
import { median, throughput } from './stats.js';
import { summarizeProfiles, WINDOWS_FILE, type Window } from './profile-summary.js';
import { configMap } from './scenarios.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REPS = num('PROFILE_REPS', 3);
const OPS = num('PROFILE_OPS', 3000);
const LIST_OPS = num('PROFILE_LIST_OPS', 1000);
const WARMUP = num('PROFILE_WARMUP', 500);
const CONCURRENCY = num('PROFILE_CONCURRENCY', 64);
const ONLY = process.env.PROFILE_ONLY?.split(',');
const PROFILE_DIR = process.env.PROFILE_DIR;
/** PROFILE_NICE=-10: run the servers, etcds and this driver at that nice value (a busy shared machine). */
const NICE = process.env.PROFILE_NICE;
/** PROFILE_MAIN_THREAD=1: count the server's main thread only (no GC helpers, no libuv pool). */
const MAIN_THREAD = process.env.PROFILE_MAIN_THREAD === '1';
/** PROFILE_THREADS=1: print each round's CPU per operation by thread name (main, V8 workers, libuv). */
const THREADS = process.env.PROFILE_THREADS === '1';
/** The builds to compare with (PROFILE_AB, comma-separated), none by default. */
const AB = process.env.PROFILE_AB ? process.env.PROFILE_AB.split(',') : [];

const OPERATIONS = ['version', 'create', 'get', 'update', 'list-50', 'list-50 rv=0'] as const;
type Operation = (typeof OPERATIONS)[number];
const wanted = (op: Operation) => !ONLY || ONLY.includes(op) || ONLY.includes(op.split(' ')[0]!);

function expect(res: { status: number; body?: any }, code: number, what: string): any {
  if (res.status !== code) throw new Error(`${what} answered ${res.status}: ${res.body?.message ?? ''}`);
  return res.body;
}

/**
 * CPU time process `pid` has used, in microseconds: the sum over its threads of the time they
 * ran (/proc/<pid>/task/<tid>/schedstat, nanoseconds), far finer than /proc/<pid>/stat's 10 ms
 * ticks, which for 2,000 requests of 100 µs would be a 5% step.
 */
function cpuUs(pid: number): number {
  let ns = 0;
  for (const tid of MAIN_THREAD ? [String(pid)] : readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended since the directory was read
    }
  }
  return ns / 1000;
}

/** Microseconds each thread name of process `pid` has run (summed over threads of one name). */
function cpuUsByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = tid === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      out.set(name, (out.get(name) ?? 0) + ns / 1000);
    } catch {
      // the thread ended since the directory was read
    }
  }
  return out;
}

/** Give every thread of process `pid` the nice value PROFILE_NICE, if set (root may lower it). */
function renice(pid: number): void {
  if (!NICE) return;
  for (const tid of readdirSync(`/proc/${pid}/task`)) spawnSync('renice', ['-n', NICE, '-p', tid], { stdio: 'ignore' });
}

/** Monotonic microseconds (CLOCK_MONOTONIC, the clock V8's CPU profiles are stamped with). */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/** One server under test, its etcd and client, and its operations. */
interface Subject {
  readonly name: string;
  readonly etcd: Etcd;
  readonly server: BenchServer;
  readonly api: JsonClient;
  readonly ops: Record<Operation, { count: number; op: (rep: number, i: number) => Promise<unknown> }>;
  /** Create warm-up object `i` of round `rep` (so that get and update find objects for their warm-up). */
  warmCreate(rep: number, i: number): Promise<void>;
}

async function startSubject(name: string, build: string): Promise<Subject> {
  const etcd = await startAnyEtcd();
  const server = await startBenchServer(
    [etcd.endpoint],
    ['--max-requests-inflight=20000', '--max-mutating-requests-inflight=2000'],
    build,
  ).catch(async (err) => {
    await etcd.stop();
    throw err;
  });
  const api = jsonClient({ url: server.url, caPem: server.caPem, token: server.token }, CONCURRENCY);
  renice(server.child.pid!);
  if (etcd.pid) renice(etcd.pid);
  const ns = 'profile-ops';
  const listNs = 'profile-list';
  for (const n of [ns, listNs])
    expect(await api.call('POST', '/api/v1/namespaces', { metadata: { name: n } }), 201, 'ns');
  for (let i = 0; i < 50; i++)
    expect(await api.call('POST', `/api/v1/namespaces/${listNs}/configmaps`, configMap(`l-${i}`, listNs)), 201, 'seed');
  /** The resourceVersion of each object's last write, by name. */
  const versions = new Map<string, string>();
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const create = async (objectName: string) => {
    const body = expect(await api.call('POST', base, configMap(objectName, ns)), 201, 'create');
    versions.set(objectName, body.metadata.resourceVersion);
  };
  const update = async (objectName: string, value: string) => {
    const cm = configMap(objectName, ns) as { metadata: Record<string, unknown>; data: Record<string, string> };
    cm.metadata.resourceVersion = versions.get(objectName);
    cm.data.k = value;
    const body = expect(await api.call('PUT', `${base}/${objectName}`, cm), 200, 'update');
    versions.set(objectName, body.metadata.resourceVersion);
  };
  const list = async (query: string) =>
    expect(await api.call('GET', `/api/v1/namespaces/${listNs}/configmaps${query}`), 200, 'list');
  return {
    name,
    etcd,
    server,
    api,
    warmCreate: (rep, i) => create(`w-${rep}-${i}`),
    ops: {
      version: { count: OPS, op: async () => expect(await api.call('GET', '/version'), 200, 'version') },
      create: { count: OPS, op: (rep, i) => create(`c-${rep}-${i}`) },
      get: {
        count: OPS,
        op: async (rep, i) => expect(await api.call('GET', `${base}/c-${rep}-${i % OPS}`), 200, 'get'),
      },
      update: { count: OPS, op: (rep, i) => update(`c-${rep}-${i % OPS}`, `${rep}-${i}`) },
      'list-50': { count: LIST_OPS, op: () => list('') },
      'list-50 rv=0': { count: LIST_OPS, op: () => list('?resourceVersion=0') },
    },
  };
}

async function stopSubject(s: Subject): Promise<void> {
  await s.api.close();
  await s.server.stop();
  await s.etcd.stop();
}

/** The untimed warm-up of `operation` on `s`. */
async function warm(s: Subject, operation: Operation, rep: number): Promise<void> {
  const { count, op } = s.ops[operation];
  await throughput(operation === 'create' ? WARMUP : Math.min(WARMUP, count), CONCURRENCY, (i) =>
    operation === 'create' ? s.warmCreate(rep, i) : op(rep, i),
  );
}

/** Time `operation` on `s`: server CPU µs per operation. */
async function measure(s: Subject, operation: Operation, rep: number, windows: Window[]): Promise<number> {
  const { count, op } = s.ops[operation];
  const pid = s.server.child.pid!;
  const threadsBefore = THREADS ? cpuUsByThread(pid) : undefined;
  const before = cpuUs(pid);
  const from = monoUs();
  const t = await throughput(count, CONCURRENCY, (i) => op(rep, i));
  const us = (cpuUs(pid) - before) / count;
  if (threadsBefore && rep >= 0) {
    const parts = [...cpuUsByThread(pid)].map(
      ([name, v]) => `${name} ${((v - (threadsBefore.get(name) ?? 0)) / count).toFixed(0)}`,
    );
    console.error(`  ${s.name} round ${rep + 1} ${operation} by thread, µs/op: ${parts.join(', ')}`);
  }
  if (rep >= 0) {
    windows.push({ label: operation, fromUs: from, toUs: monoUs() });
    console.error(
      `  ${s.name} round ${rep + 1} ${operation}: ${us.toFixed(0)} µs CPU/op, ${t.perSecond.toFixed(0)}/s, p50 ${t.p50.toFixed(1)} ms`,
    );
  }
  return us;
}

async function main(): Promise<void> {
  if (PROFILE_DIR)
    process.env.BENCH_SERVER_NODE_ARGS = [
      process.env.BENCH_SERVER_NODE_ARGS,
      `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}`,
    ]
      .filter(Boolean)
      .join(' ');
  renice(process.pid);
  const subjects: Subject[] = [];
  /** µs per op by subject and operation. */
  const results = new Map<string, Map<Operation, number[]>>();
  const windows: Window[] = [];
  try {
    subjects.push(await startSubject(AB.length ? 'after' : 'server', BUILD));
    for (const [i, build] of AB.entries())
      subjects.push(await startSubject(i ? `before-${i + 1}` : 'before', resolve(build)));
    // Round -1 is untimed: V8 optimizes the server's hot code before the first timed round.
    for (let rep = -1; rep < REPS; rep++) {
      // Creates run first in each round: get and update read the objects they made.
      for (const operation of OPERATIONS) {
        const needed = wanted(operation) || (operation === 'create' && (wanted('get') || wanted('update')));
        if (!needed) continue;
        // All servers at once: a busy spell of the machine falls on each alike.
        await Promise.all(subjects.map((s) => warm(s, operation, rep)));
        const figures = await Promise.all(subjects.map((s) => measure(s, operation, rep, windows)));
        if (rep < 0 || !wanted(operation)) continue;
        for (const [i, s] of subjects.entries()) {
          const byOp = results.get(s.name) ?? new Map<Operation, number[]>();
          results.set(s.name, byOp.set(operation, [...(byOp.get(operation) ?? []), figures[i]!]));
        }
      }
    }
  } finally {
    for (const s of subjects) await stopSubject(s);
  }
  report(results);
  if (PROFILE_DIR) {
    await writeFile(join(PROFILE_DIR, WINDOWS_FILE), JSON.stringify(windows));
    await summarizeProfiles(PROFILE_DIR, windows);
  }
}

/** The Markdown table: median (range) per subject and operation, and after/before with A/B. */
function report(results: Map<string, Map<Operation, number[]>>): void {
  const names = [...results.keys()];
  console.log(
    `server CPU per operation, µs (${process.version}; median of ${REPS} rounds, range; ${OPS} ops, lists ${LIST_OPS}, concurrency ${CONCURRENCY})`,
  );
  const others = names.slice(1);
  console.log(`| operation | ${names.join(' | ')} |${others.map((n) => ` after/${n} |`).join('')}`);
  console.log(`|---|${names.map(() => '---:|').join('')}${others.map(() => '---:|').join('')}`);
  const fmt = (v: number[]) => `${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`;
  for (const op of OPERATIONS) {
    const cols = names.map((n) => results.get(n)?.get(op));
    if (cols.some((c) => !c)) continue;
    // Paired: the median of the rounds' ratios (each round timed every server at once).
    const ratio = cols
      .slice(1)
      .map((c) => ` ${median(c!.map((v, r) => cols[0]![r]! / v)).toFixed(2)} |`)
      .join('');
    console.log(`| ${op} | ${cols.map((c) => fmt(c!)).join(' | ')} |${ratio}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
