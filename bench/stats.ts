/** Small measurement helpers shared by the bench scenarios. */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Median of `values` (0 for none). */
export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `q` quantile (0..1) of `values`, nearest rank (0 for none). */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** Wall-clock milliseconds since the epoch with sub-millisecond precision (comparable across processes). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Run `op(i)` for i in [0, ops) with `concurrency` workers. Returns the seconds it took,
 * operations per second and latencies in milliseconds; throws the first error an operation throws.
 */
export async function throughput(
  ops: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ seconds: number; perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) {
        const i = next++;
        const t = performance.now();
        await op(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, perSecond: ops / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/** Resident set size of process `pid` in KiB (VmRSS of /proc/<pid>/status). */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

/** CPU time (user + system) process `pid` has used, in milliseconds (/proc/<pid>/stat, 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Minor page faults process `pid` has taken (/proc/<pid>/stat minflt): memory it touched for the first time. */
export function minorFaults(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[7]);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Read a Prometheus gauge or counter (summing every series of `name`) from a metrics text. */
export function metricValue(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(name + ' ') || line.startsWith(name + '{'))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
