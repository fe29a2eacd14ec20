/**
 * A big list read end to end, client decode included (issue 31's last "done when"): `count`
 * ConfigMaps of 1 KiB served from the watch cache (`resourceVersion=0`), fetched over HTTP/2
 * as client-go fetches (one GET, the body read whole, then JSON.parse'd), against a raw etcd
 * range of the same keys (`/registry/configmaps/<ns>/`, the server's own stored values) by the
 * `etcd3` client with each value JSON.parse'd. The two sides alternate, each after an untimed
 * warm-up; every figure is a median.
 *
 * Both clients keep Node's HTTP/2 flow-control windows (64 KiB per stream and per connection,
 * the protocol's default), so each side's sender waits for the client's WINDOW_UPDATEs alike.
 * BENCH_H2_WINDOW=go makes the API client announce what Go's HTTP/2 transport (client-go's)
 * announces, 4 MiB per stream and 1 GiB per connection (x/net/http2 transport.go
 * transportDefaultStreamFlow, transportDefaultConnFlow); BENCH_ETCD_WINDOW=go gives the etcd
 * client 4 MiB (raw-etcd.ts). BENCH_GZIP=1 sends `Accept-Encoding: gzip` (as Go's transport does
 * unless compression is disabled) and gunzips what comes back gzipped.
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { gunzipSync } from 'node:zlib';
import type { JsonClient } from './http2-client.js';
import type { RawEtcd } from './raw-etcd.js';
import { cpuMs, median, minorFaults, throughput } from './stats.js';
import type { ApiTarget } from './watch-fanout.js';

/** A ConfigMap whose one data value is 1 KiB. */
export function kibConfigMap(name: string, ns: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels: { bench: 'yes' } },
    data: { value: 'x'.repeat(1024) },
  };
}

/** Create `count` 1 KiB ConfigMaps `p-000000`.. in `ns` through the API. Throws on any other answer than 201. */
export async function seedKibList(api: JsonClient, ns: string, count: number): Promise<void> {
  await throughput(count, 32, async (i) => {
    const res = await api.call(
      'POST',
      `/api/v1/namespaces/${ns}/configmaps`,
      kibConfigMap(`p-${String(i).padStart(6, '0')}`, ns),
    );
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.body?.message}`);
  });
}

/** One read of the whole list, as the client saw it (milliseconds and bytes). */
export interface ListRead {
  /** From the request (or range call) to the parsed items. */
  readonly ms: number;
  /** From the request to the first byte of the body (raw etcd: to the decoded range response). */
  readonly firstByteMs: number;
  /** From the request to the last byte of the body (raw etcd: as firstByteMs). */
  readonly lastByteMs: number;
  /** Bytes received: the body as sent (gzipped or not) / the values' and keys' bytes. */
  readonly bytes: number;
  /** The client's decode: joining the chunks, gunzip, UTF-8 and JSON.parse of the body / of each value. */
  readonly decodeMs: number;
  /**
   * Minor page faults the client took while decoding: memory it touched for the first time (a
   * new large string or buffer), which on some virtual machines costs tens of µs per 4 KiB page.
   */
  readonly decodeFaults: number;
  readonly items: number;
}

/** An HTTP/2 connection to the server reading whole lists (see the file comment for its windows). */
export interface ListClient {
  read(path: string): Promise<ListRead>;
  close(): Promise<void>;
}

const GO_STREAM_WINDOW = 4 << 20;
const GO_CONNECTION_WINDOW = 1 << 30;

/** A {@link ListClient} of `target`, with Node's windows unless BENCH_H2_WINDOW=go; gzip as BENCH_GZIP. */
export function listClient(target: ApiTarget): ListClient {
  const goWindows = process.env.BENCH_H2_WINDOW === 'go';
  const gzip = process.env.BENCH_GZIP === '1';
  const session: ClientHttp2Session = connect(target.url, {
    ca: target.caPem,
    settings: goWindows ? { initialWindowSize: GO_STREAM_WINDOW } : {},
  });
  session.on('error', () => undefined);
  if (goWindows) session.once('connect', () => session.setLocalWindowSize(GO_CONNECTION_WINDOW));
  return {
    read(path) {
      const started = performance.now();
      return new Promise<ListRead>((resolve, reject) => {
        const stream = session.request({
          ':path': path,
          authorization: `Bearer ${target.token}`,
          accept: 'application/json',
          ...(gzip ? { 'accept-encoding': 'gzip' } : {}),
        });
        const chunks: Buffer[] = [];
        let status = 0;
        let encoding = '';
        let firstByteMs = 0;
        stream.once('response', (h) => {
          status = Number(h[constants.HTTP2_HEADER_STATUS]);
          encoding = String(h['content-encoding'] ?? '');
        });
        stream.on('data', (c: Buffer) => {
          if (!chunks.length) firstByteMs = performance.now() - started;
          chunks.push(c);
        });
        stream.once('error', reject);
        stream.once('end', () => {
          const t = performance.now();
          const faults = process.resourceUsage().minorPageFault;
          const body = Buffer.concat(chunks);
          try {
            const list = JSON.parse((encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8'));
            const end = performance.now();
            if (status !== 200) throw new Error(`list answered ${status}: ${list.message}`);
            resolve({
              ms: end - started,
              firstByteMs,
              lastByteMs: t - started,
              bytes: body.length,
              decodeMs: end - t,
              decodeFaults: process.resourceUsage().minorPageFault - faults,
              items: list.items.length,
            });
          } catch (err) {
            reject(err);
          }
        });
        stream.end();
      });
    },
    close: () => new Promise<void>((resolve) => (session.closed ? resolve() : session.close(() => resolve()))),
  };
}

/** One raw etcd range of `prefix` with every value JSON.parse'd. */
export async function rawListRead(kv: RawEtcd, prefix: string): Promise<ListRead> {
  const started = performance.now();
  const kvs = await kv.range(prefix);
  const t = performance.now();
  const faults = process.resourceUsage().minorPageFault;
  let bytes = 0;
  const items = kvs.map((e) => {
    bytes += e.key.length + e.value.length;
    return JSON.parse(e.value.toString('utf8'));
  });
  const end = performance.now();
  return {
    ms: end - started,
    firstByteMs: t - started,
    lastByteMs: t - started,
    bytes,
    decodeMs: end - t,
    decodeFaults: process.resourceUsage().minorPageFault - faults,
    items: items.length,
  };
}

/** Medians of each side's reads, and each server's CPU (ms) and minor page faults per list. */
export interface ParsedListResult {
  /** One per server, in the order given. */
  readonly api: ListRead[];
  readonly raw: ListRead;
  readonly serverCpuMs: number[];
  readonly serverFaults: number[];
}

const medianRead = (reads: ListRead[]): ListRead => ({
  ms: median(reads.map((r) => r.ms)),
  firstByteMs: median(reads.map((r) => r.firstByteMs)),
  lastByteMs: median(reads.map((r) => r.lastByteMs)),
  bytes: median(reads.map((r) => r.bytes)),
  decodeMs: median(reads.map((r) => r.decodeMs)),
  decodeFaults: median(reads.map((r) => r.decodeFaults)),
  items: median(reads.map((r) => r.items)),
});

/** A server the list is read from: the client reading it and its process. */
export interface ListSubject {
  readonly client: ListClient;
  readonly pid: number;
}

/**
 * `times` rounds, each reading the list of `ns` at resourceVersion=0 once from every server
 * and once as a raw range of the same keys, in an order that rotates by round (so no side always
 * follows another), after `warmup` untimed rounds. Throws when a read does not return `count` items.
 */
export async function compareParsedList(
  servers: readonly ListSubject[],
  kv: RawEtcd,
  ns: string,
  count: number,
  times: number,
  warmup = 3,
): Promise<ParsedListResult> {
  const path = `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0`;
  const prefix = `/registry/configmaps/${ns}/`;
  const check = (r: ListRead, side: string) => {
    if (r.items !== count) throw new Error(`${side} list returned ${r.items} of ${count} items`);
    return r;
  };
  const api = servers.map(() => [] as ListRead[]);
  const raw: ListRead[] = [];
  const cpu = servers.map(() => 0);
  const faults = servers.map(() => 0);
  const sides = servers.length + 1;
  for (let round = -warmup; round < times; round++) {
    for (let k = 0; k < sides; k++) {
      const side = (k + Math.max(0, round)) % sides;
      if (side === servers.length) {
        const r = check(await rawListRead(kv, prefix), 'raw');
        if (round >= 0) raw.push(r);
        continue;
      }
      const { client, pid } = servers[side];
      const [before, faultsBefore] = [cpuMs(pid), minorFaults(pid)];
      const r = check(await client.read(path), 'API');
      if (round < 0) continue;
      cpu[side] += cpuMs(pid) - before;
      faults[side] += minorFaults(pid) - faultsBefore;
      api[side].push(r);
    }
  }
  return {
    api: api.map(medianRead),
    raw: medianRead(raw),
    serverCpuMs: cpu.map((c) => c / times),
    serverFaults: faults.map((f) => f / times),
  };
}

const READ_ROWS: [string, keyof ListRead, string, number][] = [
  ['end to end (request to parsed items)', 'ms', 'ms', 1],
  ['first byte (raw etcd: the range call, decoded)', 'firstByteMs', 'ms', 1],
  ['last byte', 'lastByteMs', 'ms', 1],
  ["client's decode (joining chunks, UTF-8, JSON.parse)", 'decodeMs', 'ms', 1],
  ["client's page faults while decoding", 'decodeFaults', '', 0],
  ['bytes received', 'bytes', 'B', 0],
];

/** Print one Markdown table of `results` (medians over repetitions); `names` head the API columns. */
export function printParsedList(count: number, names: readonly string[], results: readonly ParsedListResult[]): void {
  const cell = (values: number[], unit: string, digits: number) =>
    `${median(values).toFixed(digits)}${unit ? ` ${unit}` : ''}`;
  console.log(`| list of ${count} ConfigMaps (1 KiB), parsed by the client | ${names.join(' | ')} | raw etcd range |`);
  console.log(`|---|${names.map(() => '---:|').join('')}---:|`);
  for (const [label, key, unit, digits] of READ_ROWS) {
    const api = names.map((_, s) =>
      cell(
        results.map((r) => r.api[s][key]),
        unit,
        digits,
      ),
    );
    console.log(
      `| ${label} | ${api.join(' | ')} | ${cell(
        results.map((r) => r.raw[key]),
        unit,
        digits,
      )} |`,
    );
  }
  const cpu = names.map((_, s) =>
    cell(
      results.map((r) => r.serverCpuMs[s]),
      'ms',
      1,
    ),
  );
  console.log(`| server CPU per list | ${cpu.join(' | ')} | |`);
  const faults = names.map((_, s) =>
    cell(
      results.map((r) => r.serverFaults[s]),
      '',
      0,
    ),
  );
  console.log(`| server page faults per list | ${faults.join(' | ')} | |`);
  const ratios = names.map((_, s) => `${median(results.map((r) => r.api[s].ms / r.raw.ms)).toFixed(2)}x`);
  console.log(`| API time / raw etcd time (median of the repetitions' ratios) | ${ratios.join(' | ')} | |`);
}
