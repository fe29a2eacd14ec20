/**
 * Watch fan-out: `watchers` clients watch one namespace's ConfigMaps while a writer creates
 * ConfigMaps at `rate` per second for `seconds`; each object carries its index and send time,
 * so every watcher measures delivery latency and which events it never got. Run once through
 * the API server (HTTPS watches as client-go opens them, newline-delimited JSON) and once on raw etcd (etcd3 client
 * watchers of a prefix, the writer putting the same values straight into etcd).
 */
import { Etcd3 } from 'etcd3';
import { openWatches } from './http2-client.js';
import { nowMs, quantile, sleep } from './stats.js';

export interface FanoutResult {
  readonly expected: number;
  readonly missed: number;
  readonly p50: number;
  readonly p99: number;
  readonly writeFailures: number;
}

/** Per-watcher bookkeeping shared by both shapes: which writes arrived, and how late. */
class Tally {
  private readonly seen: Uint8Array[];
  private readonly latencies: Float64Array;
  private count = 0;
  constructor(
    watchers: number,
    private readonly writes: number,
  ) {
    this.seen = Array.from({ length: watchers }, () => new Uint8Array(writes));
    this.latencies = new Float64Array(watchers * writes);
  }
  /** Scan `text` for `"i":"<n>","t":"<ms>"` pairs received by watcher `w`. */
  scan(w: number, text: string): void {
    const now = nowMs();
    const re = /\\?"i\\?":\\?"(\d+)\\?",\\?"t\\?":\\?"([\d.]+)/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const i = Number(m[1]);
      if (i >= this.writes || this.seen[w][i]) continue;
      this.seen[w][i] = 1;
      this.latencies[this.count++] = now - Number(m[2]);
    }
  }
  result(writeFailures: number): FanoutResult {
    const lat = this.latencies.subarray(0, this.count);
    return {
      expected: this.latencies.length,
      missed: this.latencies.length - this.count,
      p50: quantile(lat as unknown as number[], 0.5),
      p99: quantile(lat as unknown as number[], 0.99),
      writeFailures,
    };
  }
}

/** Issue `total` writes at `rate` per second without waiting for acknowledgements; returns failures. */
async function writeAtRate(
  total: number,
  rate: number,
  write: (i: number, t: number) => Promise<void>,
): Promise<number> {
  const start = nowMs();
  let failures = 0;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - nowMs();
    if (wait > 1) await sleep(wait);
    pending.push(write(i, nowMs()).catch(() => void failures++));
  }
  await Promise.all(pending);
  return failures;
}

export interface ApiTarget {
  readonly url: string;
  readonly caPem: string;
  readonly token: string;
}

/** Through the API server: `watchers` watches of namespace `ns` from resourceVersion `rv` (see h2-watches.ts). */
export async function apiFanout(
  target: ApiTarget,
  ns: string,
  rv: string,
  watchers: number,
  rate: number,
  seconds: number,
  write: (i: number, t: number) => Promise<void>,
  whileOpen?: () => Promise<void>,
): Promise<FanoutResult> {
  const writes = rate * seconds;
  const tally = new Tally(watchers, writes);
  const tails: string[] = new Array(watchers).fill('');
  const path = `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=3600`;
  const open = await openWatches(target, path, watchers, (w, chunk) => {
    const text = tails[w] + chunk;
    const cut = text.lastIndexOf('\n');
    tails[w] = text.slice(cut + 1);
    if (cut >= 0) tally.scan(w, text.slice(0, cut));
  });
  try {
    await whileOpen?.();
    const failures = await writeAtRate(writes, rate, write);
    await sleep(5000);
    return tally.result(failures);
  } finally {
    await open.close();
  }
}

/** On raw etcd: `watchers` etcd3-client watchers of `prefix`, the writer putting into it. */
export async function etcdFanout(
  endpoint: string,
  prefix: string,
  watchers: number,
  rate: number,
  seconds: number,
): Promise<FanoutResult> {
  const writes = rate * seconds;
  const tally = new Tally(watchers, writes);
  const client = new Etcd3({ hosts: [endpoint] });
  const open = [];
  try {
    for (let w = 0; w < watchers; w++) {
      const watcher = await client.watch().prefix(prefix).create();
      watcher.on('put', (kv) => tally.scan(w, kv.value.toString('utf8')));
      open.push(watcher);
    }
    const failures = await writeAtRate(writes, rate, async (i, t) => {
      const body = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `fan-${i}`, namespace: 'bench' },
        data: { i: String(i), t: String(t) },
      };
      await client.put(`${prefix}fan-${i}`).value(JSON.stringify(body));
    });
    await sleep(5000);
    return tally.result(failures);
  } finally {
    await Promise.all(open.map((w) => w.cancel().catch(() => undefined)));
    client.close();
  }
}
