/**
 * Losing one etcd member of three (the leader, the worst case) is invisible to clients: under a
 * steady load of ConfigMap creates, updates and reads spread over two server replicas, the
 * leader is killed and later restarted; fewer than 1% of requests fail, every acknowledged write
 * is there afterwards at or after its acknowledged resourceVersion with its content, and the
 * replicas' controller leader election never loses its lease. A watch whose etcd member is
 * killed carries on from another member without missing an event.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import { startEtcdCluster, type EtcdCluster } from '../helpers/etcd-cluster.js';
import { E2E_TOKEN, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const NS_PATH = '/api/v1/namespaces/default/configmaps';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: EtcdCluster;
let servers: ServerProcess[] = [];
let clients: Client[] = [];
beforeAll(async () => {
  cluster = await startEtcdCluster();
  servers = await Promise.all([0, 1].map(() => startServerProcess([...cluster.endpoints])));
  clients = servers.map(clientFor);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.stop()));
  await cluster?.stop();
});

interface Acked {
  resourceVersion: number;
  data: Record<string, string>;
  /** Content of a later write whose outcome is unknown (it failed), if any. */
  unknown?: Record<string, string>;
}

interface Tally {
  total: number;
  failed: { op: string; status: number; message: string }[];
  /** Milliseconds each request took. */
  latencies: number[];
}

/**
 * One worker: owns its ConfigMaps, alternates creates, updates (with the acknowledged
 * resourceVersion as precondition) and reads on one replica until `until`, at ~`periodMs`.
 */
async function worker(
  id: string,
  client: Client,
  until: number,
  periodMs: number,
  acked: Map<string, Acked>,
  tally: Tally,
): Promise<void> {
  const api = {
    async call(method: string, path: string, body?: unknown) {
      const started = Date.now();
      const res = await client.call(method, path, body);
      tally.latencies.push(Date.now() - started);
      return res;
    },
  };
  const mine: string[] = [];
  const stale = new Set<string>();
  const record = (op: string, status: number, ok: boolean, body: any) => {
    tally.total++;
    if (!ok) tally.failed.push({ op, status, message: String(body?.message ?? '') });
    return ok;
  };
  for (let i = 0; Date.now() < until; i++) {
    const started = Date.now();
    const step = i % 4;
    if (step === 0 || mine.length === 0) {
      const name = `${id}-${mine.length}`;
      const data = { n: String(i), by: id };
      const res = await api.call('POST', NS_PATH, { metadata: { name }, data });
      if (record('create', res.status, res.status === 201, res.body)) {
        acked.set(name, { resourceVersion: Number(res.body.metadata.resourceVersion), data });
        mine.push(name);
      } else if (res.status !== 409) {
        // Unknown outcome: the object may exist; read it before writing it again.
        mine.push(name);
        acked.set(name, { resourceVersion: 0, data: {}, unknown: data });
        stale.add(name);
      }
    } else if (step === 1 || step === 2) {
      const name = mine[i % mine.length]!;
      if (stale.has(name)) {
        const got = await api.call('GET', `${NS_PATH}/${name}`);
        if (!record('get', got.status, got.status === 200 || got.status === 404, got.body)) continue;
        stale.delete(name);
        if (got.status === 404) {
          mine.splice(mine.indexOf(name), 1);
          acked.delete(name);
          continue;
        }
        acked.set(name, { resourceVersion: Number(got.body.metadata.resourceVersion), data: got.body.data });
      }
      const prev = acked.get(name)!;
      const data = { n: String(i), by: id };
      const res = await api.call('PUT', `${NS_PATH}/${name}`, {
        metadata: { name, resourceVersion: String(prev.resourceVersion) },
        data,
      });
      if (record('update', res.status, res.status === 200, res.body)) {
        acked.set(name, { resourceVersion: Number(res.body.metadata.resourceVersion), data });
      } else {
        acked.set(name, { ...prev, unknown: data });
        stale.add(name);
      }
    } else {
      // Reads: mostly gets, some paged and some unpaged lists.
      const path = i % 8 !== 3 ? `${NS_PATH}/${mine[i % mine.length]}` : i % 16 === 3 ? NS_PATH : `${NS_PATH}?limit=50`;
      const res = await api.call('GET', path);
      record('read', res.status, res.status === 200, res.body);
    }
    await sleep(Math.max(0, periodMs - (Date.now() - started)));
  }
}

it('keeps serving through the loss and return of the etcd leader', async () => {
  const acked = new Map<string, Acked>();
  const tally: Tally = { total: 0, failed: [], latencies: [] };
  const start = Date.now();
  const until = start + 20_000;
  // Two workers per replica, each ~10 requests per second: ~40 requests per second in all.
  const load = Promise.all(
    ['a', 'b', 'c', 'd'].map((id, i) => worker(`w${id}`, clients[i % 2]!, until, 100, acked, tally)),
  );
  await sleep(5_000);
  const leader = await cluster.leader();
  await cluster.kill(leader);
  const killedAt = Date.now() - start;
  await sleep(7_000);
  await cluster.restart(leader);
  const restartedAt = Date.now() - start;
  await load;

  const failedPct = (100 * tally.failed.length) / tally.total;
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  console.log(
    `member loss: ${tally.total} requests, ${tally.failed.length} failed (${failedPct.toFixed(2)}%), latency p50 ${sorted[Math.floor(sorted.length / 2)]} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]} ms, max ${sorted.at(-1)} ms; killed ${leader.name} at ${killedAt} ms, back at ${restartedAt} ms`,
    tally.failed.slice(0, 5),
  );
  expect(tally.total).toBeGreaterThan(300);
  expect(failedPct).toBeLessThan(1);

  // Every acknowledged write is there, at or after its resourceVersion, with its content.
  expect(acked.size).toBeGreaterThan(50);
  for (const [name, want] of acked) {
    const got = await clients[0]!.call('GET', `${NS_PATH}/${name}`);
    if (want.resourceVersion === 0) continue; // never acknowledged: nothing promised
    expect(got.status, name).toBe(200);
    expect(Number(got.body.metadata.resourceVersion), name).toBeGreaterThanOrEqual(want.resourceVersion);
    if (want.unknown) expect([want.data, want.unknown], name).toContainEqual(got.body.data);
    else expect(got.body.data, name).toEqual(want.data);
  }

  // The controllers' leader election renewed through the loss: no replica lost its lease.
  const logs = servers.flatMap((s) => s.logs);
  expect(logs.filter((l) => l.msg === 'lost leadership: stopping controllers')).toEqual([]);
  expect(logs.filter((l) => l.msg === 'became leader: starting controllers')).toHaveLength(1);
});

it('keeps a watch going, without a gap, when the etcd member serving it is killed', async () => {
  const selector = 'labelSelector=suite%3Dwatch-loss';
  const list = await clients[0]!.call('GET', `${NS_PATH}?${selector}`);
  const watch = await openWatch(
    `${servers[0]!.url}${NS_PATH}?watch=true&${selector}&resourceVersion=${list.body.metadata.resourceVersion}`,
    E2E_TOKEN,
    clients[0]!.agent,
  );
  // The HTTP watch is served by the replica's watch cache, whose one etcd watch per resource
  // shares the replica's watch stream to one member. Kill every member that serves a watch
  // stream, one after the other, so the stream behind this watch is among them.
  const counts = await Promise.all(cluster.members.map((m) => cluster.watchers(m)));
  const serving = cluster.members.filter((_, j) => counts[j]! > 0);
  expect(serving.length).toBeGreaterThan(0);
  const written: [string, string, string][] = [];
  try {
    for (const member of serving) {
      await cluster.kill(member);
      try {
        for (let i = 0; i < 15; i++) {
          const name = `watched-${member.name}-${i}`;
          const res = await clients[1]!.call('POST', NS_PATH, { metadata: { name, labels: { suite: 'watch-loss' } } });
          expect(res.status).toBe(201);
          written.push(['ADDED', name, res.body.metadata.resourceVersion]);
          await sleep(100);
        }
      } finally {
        await cluster.restart(member);
      }
    }
    const events = await watch.next(written.length, 20_000);
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion])).toEqual(written);
    await expect(watch.next(1, 500)).rejects.toThrow(/timed out/);
  } finally {
    watch.close();
  }
});
