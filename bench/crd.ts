/**
 * Custom resources against ConfigMaps, and how soon a CustomResourceDefinition is usable
 * (`npm run build && npm run bench:crd`). Two servers of the build run on one etcd
 * (bench/etcd-any.ts):
 *  - CRD to Established: BENCH_CRD_DEFS (100) definitions created one after another through
 *    replica A; for each, the time from sending the create to A answering it Established, and
 *    to replica B serving a list of its resource (B learns of it only through its watch).
 *    Polled every millisecond; p50 and p99 over the definitions. The first definition the
 *    servers see runs their CRD code cold (JIT, lazily built schemas: about 3x the others), so
 *    it is made first, untimed like the warm-up rounds below, and printed on its own line.
 *  - Custom objects against ConfigMaps, on replica A, after an untimed round of each (a quarter
 *    of the operations: JIT warm-up), in BENCH_CRD_REPS (3) repetitions that alternate the
 *    two kinds: BENCH_CRD_OPS (2,000) creates and as many gets at concurrency 64,
 *    then 50 lists of the namespace (consistent, and resourceVersion=0), then a watch receiving
 *    500 updates made at concurrency 16 (the time from the first update to the last event).
 *    The custom resource has a schema with typed fields (pruning, defaulting and validation run
 *    on every write) and carries the same 64-byte payload as the ConfigMap.
 * BENCH_CRD_OPS=0 measures only the definitions. Prints a Markdown table: each figure is the median of the repetitions; the ratio is custom
 * resource over ConfigMap (rates) or ConfigMap over custom resource (times), so 1.0 = as fast.
 */
import { connect } from 'node:http2';
import { performance } from 'node:perf_hooks';
import { startAnyEtcd } from './etcd-any.js';
import { jsonClient, type JsonClient } from './http2-client.js';
import { startBenchServer, type BenchServer } from './server.js';
import { median, quantile, sleep, throughput } from './stats.js';
import { configMap } from './scenarios.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DEFS = num('BENCH_CRD_DEFS', 100);
const REPS = num('BENCH_CRD_REPS', 3);
const OPS = num('BENCH_CRD_OPS', 2000);
const CONCURRENCY = 64;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['k'],
      properties: {
        k: { type: 'string', maxLength: 1024 },
        size: { type: 'string', enum: ['small', 'large'], default: 'small' },
        replicas: { type: 'integer', minimum: 0, maximum: 100, default: 1 },
      },
    },
  },
};

function definition(plural: string, kind: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.bench.example.com` },
    spec: {
      group: 'bench.example.com',
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const established = (body: any) =>
  (body?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');

async function check(res: Promise<{ status: number; body: any }>, code: number, what: string): Promise<any> {
  const r = await res;
  if (r.status !== code) throw new Error(`${what} answered ${r.status}: ${r.body?.message ?? ''}`);
  return r.body;
}

interface CrdLatency {
  /** Milliseconds from the create to Established on `a`, one per definition. */
  readonly established: number[];
  /** Milliseconds from the create to `b` serving the resource, one per definition. */
  readonly served: number[];
}

/** Create definition `i` through `a`; milliseconds to Established on `a` and to served on `b`. */
async function crdOnce(a: JsonClient, b: JsonClient, i: number): Promise<[established: number, served: number]> {
  const def = definition(`things${i}`, `Thing${i}`);
  const t0 = performance.now();
  await check(a.call('POST', CRDS, def), 201, 'CRD create');
  while (!established((await a.call('GET', `${CRDS}/${def.metadata.name}`)).body)) await sleep(1);
  const establishedMs = performance.now() - t0;
  while ((await b.call('GET', `/apis/bench.example.com/v1/namespaces/default/things${i}`)).status !== 200)
    await sleep(1);
  return [establishedMs, performance.now() - t0];
}

/** The cold first definition, then DEFS definitions made one after another. */
async function crdLatency(a: JsonClient, b: JsonClient): Promise<{ cold: [number, number]; warm: CrdLatency }> {
  const cold = await crdOnce(a, b, 0);
  const warm: CrdLatency = { established: [], served: [] };
  for (let i = 1; i <= DEFS; i++) {
    const [e, s] = await crdOnce(a, b, i);
    warm.established.push(e);
    warm.served.push(s);
  }
  return { cold, warm };
}

interface KindFigures {
  create: number;
  get: number;
  listConsistent: number;
  listCached: number;
  watch: number;
}

interface Kind {
  readonly path: string;
  body(name: string, ns: string): Record<string, unknown>;
  change(obj: any, i: number): Record<string, unknown>;
}

const KINDS: Record<'configmap' | 'custom', Kind> = {
  configmap: {
    path: '/api/v1/namespaces/NS/configmaps',
    body: (name, ns) => configMap(name, ns),
    change: (obj, i) => ({ ...obj, data: { k: `v${i}` } }),
  },
  custom: {
    path: '/apis/bench.example.com/v1/namespaces/NS/widgets',
    body: (name) => ({
      apiVersion: 'bench.example.com/v1',
      kind: 'Widget',
      metadata: { name, labels: { bench: 'yes' } },
      spec: { k: 'v'.repeat(64) },
    }),
    change: (obj, i) => ({ ...obj, spec: { ...obj.spec, k: `v${i}` } }),
  },
};

/** The time from the first of 500 updates to the last of their watch events, in ms. */
async function watchDelivery(
  server: BenchServer,
  api: JsonClient,
  kind: Kind,
  ns: string,
  names: string[],
): Promise<number> {
  const path = kind.path.replace('NS', ns);
  const list = await check(api.call('GET', path), 200, 'list');
  const session = connect(server.url, { ca: server.caPem });
  session.on('error', () => undefined);
  const stream = session.request({
    ':path': `${path}?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
    authorization: `Bearer ${server.token}`,
  });
  const updates = 500;
  let seen = 0;
  let buffer = '';
  const done = new Promise<number>((resolve) => {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        buffer = buffer.slice(nl + 1);
        if (++seen === updates) resolve(performance.now());
      }
    });
  });
  await sleep(200);
  const objects = list.items.slice(0, names.length);
  const t0 = performance.now();
  await throughput(updates, 16, async (i) => {
    const obj = objects[i % objects.length];
    const current = await check(api.call('GET', `${path}/${obj.metadata.name}`), 200, 'get');
    await api.call('PUT', `${path}/${obj.metadata.name}`, kind.change(current, i));
  });
  const end = await Promise.race([done, sleep(60_000).then(() => Number.NaN)]);
  stream.close();
  session.close();
  return end - t0;
}

async function runKind(
  server: BenchServer,
  api: JsonClient,
  which: keyof typeof KINDS,
  rep: number,
  ops = OPS,
): Promise<KindFigures> {
  const kind = KINDS[which];
  const ns = `${which}-${rep < 0 ? 'warmup' : rep}`;
  await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const path = kind.path.replace('NS', ns);
  const names = Array.from({ length: ops }, (_, i) => `o${i}`);
  const create = await throughput(ops, CONCURRENCY, (i) =>
    check(api.call('POST', path, kind.body(names[i]!, ns)), 201, 'create'),
  );
  const get = await throughput(ops, CONCURRENCY, (i) => check(api.call('GET', `${path}/${names[i]}`), 200, 'get'));
  const lists = async (query: string) => {
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await check(api.call('GET', `${path}${query}`), 200, 'list');
      times.push(performance.now() - t);
    }
    return median(times);
  };
  const listConsistent = await lists('');
  const listCached = await lists('?resourceVersion=0');
  const watch = await watchDelivery(server, api, kind, ns, names.slice(0, 100));
  return { create: create.perSecond, get: get.perSecond, listConsistent, listCached, watch };
}

async function main(): Promise<void> {
  const etcd = await startAnyEtcd();
  const [a, b] = await Promise.all([startBenchServer([etcd.endpoint]), startBenchServer([etcd.endpoint])]);
  const apiA = jsonClient(a, CONCURRENCY);
  const apiB = jsonClient(b, 4);
  try {
    const { cold, warm: latency } = await crdLatency(apiA, apiB);
    console.log(
      `CRD to Established on the replica that created it: p50 ${quantile(latency.established, 0.5).toFixed(1)} ms, p99 ${quantile(latency.established, 0.99).toFixed(1)} ms (${DEFS} definitions)`,
    );
    console.log(
      `CRD to served by the other replica: p50 ${quantile(latency.served, 0.5).toFixed(1)} ms, p99 ${quantile(latency.served, 0.99).toFixed(1)} ms`,
    );
    console.log(
      `The first definition (cold, untimed above): Established ${cold[0].toFixed(1)} ms, served by the other replica ${cold[1].toFixed(1)} ms`,
    );
    if (OPS <= 0) return;
    await check(apiA.call('POST', CRDS, definition('widgets', 'Widget')), 201, 'CRD create');
    while ((await apiA.call('GET', '/apis/bench.example.com/v1/widgets')).status !== 200) await sleep(5);
    const figures: Record<'configmap' | 'custom', KindFigures[]> = { configmap: [], custom: [] };
    for (const which of ['configmap', 'custom'] as const) await runKind(a, apiA, which, -1, Math.ceil(OPS / 4));
    for (let rep = 0; rep < REPS; rep++) {
      const order: (keyof typeof KINDS)[] = rep % 2 ? ['custom', 'configmap'] : ['configmap', 'custom'];
      for (const which of order) {
        const f = await runKind(a, apiA, which, rep);
        figures[which].push(f);
        console.error(`rep ${rep} ${which}: ${JSON.stringify(f)}`);
      }
    }
    const med = (which: 'configmap' | 'custom', key: keyof KindFigures) => median(figures[which].map((f) => f[key]));
    const row = (label: string, key: keyof KindFigures, unit: string, rate: boolean) => {
      const cm = med('configmap', key);
      const cr = med('custom', key);
      const ratio = rate ? cr / cm : cm / cr;
      return `| ${label} | ${cr.toFixed(1)} ${unit} | ${cm.toFixed(1)} ${unit} | ${ratio.toFixed(2)}x |`;
    };
    console.log('');
    console.log('| operation | custom resource | ConfigMap | ratio |');
    console.log('|---|---:|---:|---:|');
    console.log(row(`create (${OPS}, concurrency ${CONCURRENCY})`, 'create', 'ops/s', true));
    console.log(row(`get (${OPS})`, 'get', 'ops/s', true));
    console.log(row(`list ${OPS}, consistent`, 'listConsistent', 'ms', false));
    console.log(row(`list ${OPS}, resourceVersion=0`, 'listCached', 'ms', false));
    console.log(row('watch: 500 updates delivered', 'watch', 'ms', false));
  } finally {
    await apiA.close();
    await apiB.close();
    await Promise.all([a.stop(), b.stop()]);
    await etcd.stop();
  }
}

await main();
