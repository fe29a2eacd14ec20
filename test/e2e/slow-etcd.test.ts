/**
 * A slow etcd member is not a dead one (issue 31): under a bounded list and write load (8 loops
 * listing a namespace of 300 ConfigMaps of 1 KiB, 4 loops creating ConfigMaps), an etcd member
 * is frozen (`docker pause`, the cgroup freezer: SIGSTOP of every process) for 2 s, four times
 * over a 3-member cluster (each member in turn) and twice for a single member. Every answer must
 * be a success, a 429 with Retry-After or a 504 (upstream's answers to overload and to a
 * storage deadline), never a 503 from a connection the server dropped itself; etcd never
 * sends GOAWAY ENHANCE_YOUR_CALM `too_many_pings` (seen on the wire by a relay in front of each
 * member: etcd 3.4 does not log it at its default level), the server's pings on a connection
 * stay at least 5 s apart (etcd's `--grpc-keepalive-min-time`), and everything works after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startEtcd, type StartedEtcd } from '../helpers/etcd.js';
import { startEtcdCluster, type EtcdCluster } from '../helpers/etcd-cluster.js';
import { startFrameTap, type FrameTap } from '../helpers/h2-frame-tap.js';
import { run } from '../helpers/run.js';
import { E2E_TOKEN, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const LIST_NS = 'slow-list';
const WRITE_NS = 'slow-write';
const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KIB = 'x'.repeat(1024);
/** etcd's default --grpc-keepalive-min-time, less what timestamps on a loaded machine drift. */
const MIN_PING_GAP_MS = 5000 - 100;

interface Answer {
  status: number;
  retryAfter?: string;
  message?: string;
}

/** One replica on etcd, reached through a client with a bounded wait (30 s: no loop hangs). */
interface Target {
  readonly server: ServerProcess;
  readonly agent: Agent;
  readonly taps: readonly FrameTap[];
}

async function call(t: Target, method: string, p: string, body?: unknown): Promise<Answer> {
  try {
    const res = await request(t.server.url + p, {
      method: method as 'GET',
      dispatcher: t.agent,
      headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    const answer: Answer = { status: res.statusCode };
    if (res.statusCode >= 300) answer.message = String(JSON.parse(text || '{}').message ?? text).slice(0, 300);
    const retryAfter = res.headers['retry-after'];
    if (retryAfter !== undefined) answer.retryAfter = String(retryAfter);
    return answer;
  } catch (err) {
    // No answer at all (connection reset, client timeout): status 0.
    return { status: 0, message: err instanceof Error ? err.message : String(err) };
  }
}

/** Start a replica on `endpoints` through a frame tap each; create the namespaces and 300 ConfigMaps to list. */
async function replicaOn(endpoints: readonly string[]): Promise<Target> {
  const taps = await Promise.all(endpoints.map((e) => startFrameTap(e)));
  const server = await startServerProcess(taps.map((t) => t.endpoint));
  const target = { server, taps, agent: new Agent({ connect: { ca: server.caPem }, connections: 16 }) };
  for (const name of [LIST_NS, WRITE_NS])
    expect((await call(target, 'POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
  for (let i = 0; i < 300; i += 20) {
    const batch = Array.from({ length: 20 }, (_, j) =>
      call(target, 'POST', path(LIST_NS), { metadata: { name: `cm-${i + j}` }, data: { v: KIB } }),
    );
    for (const res of await Promise.all(batch)) expect(res.status).toBe(201);
  }
  return target;
}

interface Tally {
  byStatus: Record<number, number>;
  /** Answers other than 2xx, 429 with Retry-After and 504. */
  refused: Answer[];
  latencies: number[];
}

/** Run 8 list loops and 4 create loops on `t` for `ms`, while `faults` runs; counts answers by status. */
async function underLoad(t: Target, ms: number, faults: () => Promise<void>): Promise<Tally> {
  const tally: Tally = { byStatus: {}, refused: [], latencies: [] };
  const until = Date.now() + ms;
  const record = (a: Answer, started: number) => {
    tally.latencies.push(Date.now() - started);
    tally.byStatus[a.status] = (tally.byStatus[a.status] ?? 0) + 1;
    const ok = (a.status >= 200 && a.status < 300) || a.status === 504 || (a.status === 429 && a.retryAfter);
    if (!ok) tally.refused.push(a);
  };
  let n = 0;
  const loop = async (op: () => Promise<Answer>) => {
    while (Date.now() < until) {
      const started = Date.now();
      record(await op(), started);
    }
  };
  const lists = Array.from({ length: 8 }, () => loop(() => call(t, 'GET', path(LIST_NS))));
  const creates = Array.from({ length: 4 }, () =>
    loop(() => call(t, 'POST', path(WRITE_NS), { metadata: { name: `w-${Date.now()}-${n++}` }, data: { v: KIB } })),
  );
  await Promise.all([...lists, ...creates, faults()]);
  return tally;
}

/** Freeze a container for `ms` (docker pause: every process stopped, its sockets left open). */
async function freeze(containerId: string, ms: number): Promise<void> {
  const paused = await run('docker', ['pause', containerId]);
  if (paused.code !== 0) throw new Error(`docker pause: ${paused.stderr}`);
  try {
    await sleep(ms);
  } finally {
    await run('docker', ['unpause', containerId]);
  }
}

/** Poll until a create and a consistent list both succeed (throws after 15 s); then 20 more must too. */
async function worksAgain(t: Target): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last: Answer[] = [];
  for (let i = 0; Date.now() < deadline; i++) {
    last = [
      await call(t, 'POST', path(WRITE_NS), { metadata: { name: `after-${Date.now()}-${i}` } }),
      await call(t, 'GET', path(LIST_NS)),
    ];
    if (last[0]!.status === 201 && last[1]!.status === 200) break;
    await sleep(250);
  }
  expect(last.map((a) => a.status)).toEqual([201, 200]);
  const more = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      i % 2 ? call(t, 'GET', path(LIST_NS)) : call(t, 'POST', path(WRITE_NS), { metadata: { name: `final-${i}` } }),
    ),
  );
  expect(more.filter((a) => a.status >= 300)).toEqual([]);
}

/**
 * What etcd and the server said about pings: GOAWAYs, the closest two pings on one connection,
 * server log lines naming ENHANCE_YOUR_CALM, and connections opened to each member so far.
 */
function pingReport(t: Target) {
  const goaways = t.taps.flatMap((tap) => tap.goaways);
  const gaps = t.taps.flatMap((tap) => tap.pings.flatMap((times) => times.slice(1).map((at, i) => at - times[i]!)));
  const pings = t.taps.reduce((sum, tap) => sum + tap.pings.reduce((s, times) => s + times.length, 0), 0);
  const calm = t.server.logs.filter((l) => /too_many_pings|error code 11|ENHANCE_YOUR_CALM/.test(JSON.stringify(l)));
  const connections = t.taps.map((tap) => tap.connections());
  return {
    goaways,
    pings,
    closestPings: gaps.length ? Math.min(...gaps) : null,
    calmLogLines: calm.length,
    connections,
  };
}

function summary(name: string, tally: Tally, t: Target): void {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  const refusedBy = new Map<string, number>();
  for (const a of tally.refused)
    refusedBy.set(`${a.status} ${a.message}`, (refusedBy.get(`${a.status} ${a.message}`) ?? 0) + 1);
  console.log(
    `${name}: ${sorted.length} answers by status ${JSON.stringify(tally.byStatus)}; latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)} ms;`,
    JSON.stringify(pingReport(t)),
    [...refusedBy].slice(0, 8),
  );
}

let cluster: EtcdCluster | undefined;
let single: StartedEtcd | undefined;
let onCluster: Target;
let onSingle: Target;
beforeAll(async () => {
  [cluster, single] = await Promise.all([startEtcdCluster(), startEtcd()]);
  [onCluster, onSingle] = await Promise.all([replicaOn(cluster.endpoints), replicaOn([single.endpoint])]);
});
afterAll(async () => {
  for (const t of [onCluster, onSingle]) {
    if (!t) continue;
    await t.agent.close();
    await t.server.stop();
    await Promise.all(t.taps.map((tap) => tap.close()));
  }
  await cluster?.stop();
  await single?.stop();
});

describe('an etcd member frozen for 2 s at a time under list and write load', () => {
  it('on a 3-member cluster: no 503, only 2xx, 429 with Retry-After or 504; no too_many_pings; works after', async () => {
    const c = cluster!;
    const roles: string[] = [];
    const leader = await c.leader();
    const tally = await underLoad(onCluster, 20_000, async () => {
      for (let i = 0; i < 4; i++) {
        await sleep(i === 0 ? 2000 : 2500);
        const member = c.members[i % 3]!;
        roles.push(`${member.name}${member === leader ? ' (leader)' : ''} with ${await c.watchers(member)} watchers`);
        await freeze(member.container.getId(), 2000);
      }
    });
    summary(`3 members, froze ${roles.join(', ')}`, tally, onCluster);
    await worksAgain(onCluster);
    expect(tally.latencies.length).toBeGreaterThan(200);
    expect(tally.byStatus[503] ?? 0).toBe(0);
    expect(tally.refused).toEqual([]);
    const pings = pingReport(onCluster);
    expect(pings.goaways.filter((g) => g.code === 11 || /too_many_pings/.test(g.debug))).toEqual([]);
    expect(pings.closestPings ?? Infinity).toBeGreaterThanOrEqual(MIN_PING_GAP_MS);
    expect(pings.calmLogLines).toBe(0);
  });

  it('on a single member: requests wait and succeed or answer 504, none 503; works after', async () => {
    const tally = await underLoad(onSingle, 10_000, async () => {
      for (let i = 0; i < 2; i++) {
        await sleep(2000);
        await freeze(single!.container.getId(), 2000);
      }
    });
    summary('1 member, froze it twice', tally, onSingle);
    await worksAgain(onSingle);
    expect(tally.latencies.length).toBeGreaterThan(100);
    expect(tally.byStatus[503] ?? 0).toBe(0);
    expect(tally.refused).toEqual([]);
    const pings = pingReport(onSingle);
    expect(pings.goaways.filter((g) => g.code === 11 || /too_many_pings/.test(g.debug))).toEqual([]);
    expect(pings.closestPings ?? Infinity).toBeGreaterThanOrEqual(MIN_PING_GAP_MS);
  });
});
