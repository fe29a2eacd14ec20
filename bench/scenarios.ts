/**
 * The request-shaped bench scenarios, each run through the API server and on raw etcd with
 * the same shapes: create and get at a fixed concurrency, lists of 10,000 objects, and the
 * server memory cost of idle watches.
 */
import { Agent, request } from 'undici';
import type { RawEtcd } from './raw-etcd.js';
import { cpuMs, median, rssKiB, sleep, throughput } from './stats.js';
import { openWatches, type JsonClient } from './http2-client.js';
import type { ApiTarget } from './watch-fanout.js';

/** A ConfigMap body of about 200 bytes. */
export function configMap(name: string, ns: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels: { bench: 'yes' } },
    data: { k: 'v'.repeat(64) },
  };
}

/** Requests answered with another code than expected, by code, with the first message of each (reported, not thrown). */
export const unexpected = new Map<string, { count: number; message: string }>();

/** Note `res` in {@link unexpected} unless it answered `code`. */
export function expectStatus(res: { status: number; body?: any }, code: number): void {
  if (res.status === code) return;
  const key = `${code}->${res.status}`;
  const seen = unexpected.get(key) ?? { count: 0, message: String(res.body?.message ?? '') };
  seen.count++;
  unexpected.set(key, seen);
}

/**
 * Ops per second through the API and on raw etcd, and the CPU the server processes spent on the
 * API ops: µs per op, and cores busy (their CPU seconds per second of the API's slices).
 */
export interface Throughput {
  readonly api: number;
  readonly raw: number;
  readonly serverCpuUs: number;
  readonly serverCores: number;
}

/** CPU time (ms) of every process in `pids`, summed. */
const cpuOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);

/**
 * `ops` of `apiOp` and of `rawOp`, noting the CPU the server processes `pids` (one, or every
 * replica the API ops are spread over) spent on the API ones. The two
 * sides alternate in `chunks` slices of the ops (API, raw, API, raw, ...), so that a slower
 * spell of the shared machine (etcd's disk, the other processes) falls on both instead of on
 * one; each side's rate is its ops over the time its slices took. Each side first runs an
 * untimed warm-up of `warmup` operations (indices `ops` .. `ops + warmup - 1`): V8 re-optimizes
 * code whose type feedback another scenario changed (after a watch fan-out, about 75 server
 * functions are compiled again in the next batch), and the figure wanted is the sustained rate.
 */
export async function compare(
  pids: number | readonly number[],
  ops: number,
  warmup: number,
  chunks: number,
  concurrency: number,
  apiOp: (i: number) => Promise<unknown>,
  rawOp: (i: number) => Promise<unknown>,
): Promise<Throughput> {
  const all = typeof pids === 'number' ? [pids] : pids;
  await throughput(warmup, concurrency, (i) => apiOp(ops + i));
  await throughput(warmup, concurrency, (i) => rawOp(ops + i));
  let [apiSeconds, rawSeconds, cpu] = [0, 0, 0];
  for (let c = 0; c < chunks; c++) {
    const from = Math.floor((ops * c) / chunks);
    const size = Math.floor((ops * (c + 1)) / chunks) - from;
    const before = cpuOf(all);
    apiSeconds += (await throughput(size, concurrency, (i) => apiOp(from + i))).seconds;
    cpu += cpuOf(all) - before;
    rawSeconds += (await throughput(size, concurrency, (i) => rawOp(from + i))).seconds;
  }
  return {
    api: ops / apiSeconds,
    raw: ops / rawSeconds,
    serverCpuUs: (cpu * 1000) / ops,
    serverCores: cpu / 1000 / apiSeconds,
  };
}

/** Create `ops` ConfigMaps in `ns` through the API (server `pid`) vs etcd create transactions, in `chunks` alternating slices, each side after `warmup` untimed creates. */
export function createThroughput(
  api: JsonClient,
  kv: RawEtcd,
  pid: number,
  ns: string,
  tag: string,
  ops: number,
  warmup: number,
  chunks: number,
  concurrency: number,
): Promise<Throughput> {
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  return compare(
    pid,
    ops,
    warmup,
    chunks,
    concurrency,
    async (i) => expectStatus(await api.call('POST', path, configMap(`c-${tag}-${i}`, ns)), 201),
    (i) => kv.create(`/bench-raw/create-${tag}/c-${i}`, JSON.stringify(configMap(`c-${i}`, ns))),
  );
}

/** GET of those ConfigMaps (no resourceVersion: from etcd, linearizable) vs a raw linearizable get, in `chunks` alternating slices, each side after `warmup` untimed gets. */
export function getThroughput(
  api: JsonClient,
  kv: RawEtcd,
  pid: number,
  ns: string,
  tag: string,
  ops: number,
  warmup: number,
  chunks: number,
  concurrency: number,
): Promise<Throughput> {
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  return compare(
    pid,
    ops,
    warmup,
    chunks,
    concurrency,
    async (i) => expectStatus(await api.call('GET', `${path}/c-${tag}-${i % ops}`), 200),
    (i) => kv.get(`/bench-raw/create-${tag}/c-${i % ops}`),
  );
}

/** Fill namespace `ns` and the raw prefix with `count` ConfigMaps (same stored values). */
export async function seedList(api: JsonClient, kv: RawEtcd, ns: string, count: number): Promise<void> {
  await throughput(count, 32, async (i) =>
    expectStatus(await api.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`l-${i}`, ns)), 201),
  );
  await throughput(count, 64, (i) =>
    kv.create(`/bench-raw/list/l-${String(i).padStart(6, '0')}`, JSON.stringify(configMap(`l-${i}`, ns))),
  );
}

/** Milliseconds per full list (median of `times`): API with `query`, reading the whole body. */
export async function listApi(
  target: ApiTarget,
  agent: Agent,
  ns: string,
  query: string,
  times: number,
): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const res = await request(`${target.url}/api/v1/namespaces/${ns}/configmaps${query}`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${target.token}` },
    });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.length < 100) throw new Error(`list answered ${res.statusCode}`);
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** Milliseconds per raw etcd range of the seeded prefix (median of `times`). */
export async function listRaw(kv: RawEtcd, times: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await kv.list('/bench-raw/list/');
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** Server RSS growth per idle watch (KiB), read three times after the last watch opened. */
export interface IdleWatchCost {
  /** 5 s after (V8 still holds what opening the watches left behind). */
  readonly afterOpen: number;
  /** 60 s after (V8's memory reducer may or may not have run yet). */
  readonly afterMinute: number;
  /** 120 s after: V8's memory reducer has run (see SETTLE_MS). */
  readonly settled: number;
}

/**
 * How long the server must sit idle after a burst before its RSS is read as settled (ms). What
 * a burst leaves behind (old-generation garbage, free pages, a young generation grown to its
 * maximum) is given back by V8's memory reducer, which starts a memory-reducing collection once
 * the allocation rate it averages over its last ten samples is low, and at the latest 100 s after
 * the last full collection (its watchdog, kWatchdogDelayMs), checking every 8 s
 * (v8/src/heap/memory-reducer.cc). After a burst the average stays high for a while: the reducer
 * ran 47 to 64 s after 10,000 watches were opened, so a reading at 60 s caught it in some runs
 * and not in others. 120 s is past the watchdog and its next check.
 */
const SETTLE_MS = 120_000;

/**
 * Open `count` idle watches (see h2-watches.ts) and return the server's RSS growth per watch in
 * KiB, 5 s, 60 s and 120 s after the last opened; then close them. The baseline is read after
 * 200 warm-up watches were opened and closed and the server then sat idle for the same 120 s, so
 * that both readings are of a settled server.
 */
export async function idleWatchCost(target: ApiTarget, pid: number, ns: string, count: number): Promise<IdleWatchCost> {
  const path = `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=0&timeoutSeconds=3600`;
  // A first 200 watches warm up what every watch shares (code, connection buffers), then close.
  const warm = await openWatches(target, path, 200, () => undefined);
  await sleep(1000);
  await warm.close();
  await sleep(SETTLE_MS);
  const before = rssKiB(pid);
  const open = await openWatches(target, path, count, () => undefined);
  const growth = () => (rssKiB(pid) - before) / count;
  try {
    await sleep(5000);
    const afterOpen = growth();
    await sleep(55_000);
    const afterMinute = growth();
    await sleep(SETTLE_MS - 60_000);
    return { afterOpen, afterMinute, settled: growth() };
  } finally {
    await open.close();
    await sleep(3000);
  }
}
