/**
 * The operations the replica bench (replicas.ts) measures, each through the API (spread over
 * the replicas) and on raw etcd with the server's shapes (raw-etcd.ts), alternating in slices
 * after a warm-up (scenarios.ts compare()): create, get (linearizable), update (with the
 * resourceVersion of the object's last write, as client-go's Update sends it; raw etcd: a
 * transaction conditioned on the key's ModRevision), and a list of a namespace of `listItems`
 * ConfigMaps without a resourceVersion (consistent) and with resourceVersion=0 (the watch cache),
 * against a raw range of as many values.
 */
import type { JsonClient } from './http2-client.js';
import type { RawEtcd } from './raw-etcd.js';
import { compare, configMap, expectStatus, type Throughput } from './scenarios.js';
import { throughput } from './stats.js';

/** The operations, in the order they run (creates make the objects the others read and write). */
export const REPLICA_OPERATIONS = ['create', 'get', 'update', 'list consistent', 'list resourceVersion=0'] as const;
export type ReplicaOperation = (typeof REPLICA_OPERATIONS)[number];

export interface ReplicaOpsParams {
  /** Timed operations per side (lists: half as many). */
  readonly ops: number;
  /** Untimed operations per side before them. */
  readonly warmup: number;
  /** Alternating slices per side. */
  readonly chunks: number;
  readonly concurrency: number;
  /** Objects in the listed namespace. */
  readonly listItems: number;
}

/**
 * Run every operation once through `api` (whose calls go to the replicas `pids`) and on `kv`,
 * in namespaces and raw prefixes named after `tag` (unique per run). Returns each operation's
 * {@link Throughput}; answers other than the expected code are noted in `unexpected`
 * (scenarios.ts), a raw etcd failure throws.
 */
export async function replicaOps(
  api: JsonClient,
  kv: RawEtcd,
  pids: readonly number[],
  tag: string,
  p: ReplicaOpsParams,
): Promise<Record<ReplicaOperation, Throughput>> {
  const ns = `bench-r-${tag}`;
  const listNs = `bench-rl-${tag}`;
  for (const name of [ns, listNs])
    expectStatus(await api.call('POST', '/api/v1/namespaces', { metadata: { name } }), 201);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const raw = `/bench-raw/r-${tag}/`;
  const versions = new Map<number, string>();
  const revisions = new Map<number, number>();
  const run = (ops: number, apiOp: (i: number) => Promise<unknown>, rawOp: (i: number) => Promise<unknown>) =>
    compare(pids, ops, p.warmup, p.chunks, p.concurrency, apiOp, rawOp);

  const create = await run(
    p.ops,
    async (i) => {
      const res = await api.call('POST', path, configMap(`c-${i}`, ns));
      expectStatus(res, 201);
      if (res.status === 201) versions.set(i, res.body.metadata.resourceVersion);
    },
    async (i) => revisions.set(i, await kv.create(`${raw}c-${i}`, JSON.stringify(configMap(`c-${i}`, ns)))),
  );
  const get = await run(
    p.ops,
    async (i) => expectStatus(await api.call('GET', `${path}/c-${i}`), 200),
    (i) => kv.get(`${raw}c-${i}`),
  );
  const update = await run(
    p.ops,
    async (i) => {
      const body = configMap(`c-${i}`, ns) as { metadata: Record<string, unknown>; data: Record<string, string> };
      body.metadata.resourceVersion = versions.get(i);
      body.data.k = `updated-${i}`;
      const res = await api.call('PUT', `${path}/c-${i}`, body);
      expectStatus(res, 200);
    },
    async (i) => {
      const value = JSON.stringify({ ...configMap(`c-${i}`, ns), data: { k: `updated-${i}` } });
      revisions.set(i, await kv.update(`${raw}c-${i}`, value, revisions.get(i)!));
    },
  );

  await throughput(p.listItems, 32, async (i) =>
    expectStatus(await api.call('POST', `/api/v1/namespaces/${listNs}/configmaps`, configMap(`l-${i}`, listNs)), 201),
  );
  await throughput(p.listItems, 32, (i) =>
    kv.create(`/bench-raw/rl-${tag}/l-${i}`, JSON.stringify(configMap(`l-${i}`, listNs))),
  );
  const list = async (query: string) => {
    const res = await api.call('GET', `/api/v1/namespaces/${listNs}/configmaps${query}`);
    expectStatus(res, 200);
    if (res.status === 200 && res.body.items.length !== p.listItems)
      throw new Error(`list returned ${res.body.items.length} of ${p.listItems} items`);
  };
  const rawList = async () => {
    const values = await kv.list(`/bench-raw/rl-${tag}/`);
    if (values.length !== p.listItems) throw new Error(`raw list returned ${values.length} of ${p.listItems}`);
    for (const v of values) JSON.parse(v);
  };
  const listOps = Math.max(1, Math.floor(p.ops / 2));
  const consistent = await run(listOps, () => list(''), rawList);
  const cached = await run(listOps, () => list('?resourceVersion=0'), rawList);
  return {
    create,
    get,
    update,
    'list consistent': consistent,
    'list resourceVersion=0': cached,
  };
}
