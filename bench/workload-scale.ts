/**
 * Pods at scale through the workload controllers (`npm run build && npm run bench:workloads`):
 * one server of the build on one etcd (bench/etcd-any.ts) with `--simulated-nodes=BENCH_NODES`
 * (100); once every node is Ready, BENCH_DEPLOYMENTS (100) Deployments of BENCH_PODS /
 * BENCH_DEPLOYMENTS replicas each (10,000 pods in all; one container, no probes) are created at
 * once, and the bench polls the Deployments every 500 ms until their availableReplicas add up to
 * BENCH_PODS. Every pod goes the whole way a cluster's does: the Deployment controller makes a
 * ReplicaSet, the ReplicaSet controller the pods, the scheduler binds each through
 * pods/binding, the simulated node's agent writes it Running and Ready through pods/status, and
 * Events are recorded. Prints the time to all nodes Ready, to all pods created, scheduled and
 * Available (from the first create), the server's CPU time and its resident memory at the end
 * and at its peak. BENCH_QUICK=1: 10 nodes, 1,000 pods.
 *
 * kwok, for comparison, publishes (its README and its CI's benchmark gate) 5,000 nodes and
 * 10,000 pods each made ready within 60 s, with a real kube-apiserver, etcd, scheduler and
 * controller manager beside kwok's own controller, on GitHub's runners.
 */
import { startAnyEtcd } from './etcd-any.js';
import { jsonClient, type JsonClient } from './http2-client.js';
import { startBenchServer } from './server.js';
import { cpuMs, rssKiB, sleep } from './stats.js';
import { readFileSync } from 'node:fs';

const quick = process.env.BENCH_QUICK === '1';
const num = (name: string, full: number, small: number) => Number(process.env[name] ?? (quick ? small : full));
const NODES = num('BENCH_NODES', 100, 10);
const PODS = num('BENCH_PODS', 10_000, 1000);
const DEPLOYMENTS = num('BENCH_DEPLOYMENTS', 100, 10);
const TIMEOUT_MS = num('BENCH_TIMEOUT_S', 900, 300) * 1000;
const NS = 'default';

/** Peak resident set size of process `pid` in KiB (VmHWM). */
function peakRssKiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

function deployment(i: number, replicas: number) {
  const app = `scale-${i}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app } },
        spec: {
          containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m' } } }],
        },
      },
    },
  };
}

/** Poll `read` every 500 ms until it reaches `target`; ms from `t0`, or throws past the deadline. */
async function until(what: string, t0: number, target: number, read: () => Promise<number>): Promise<number> {
  for (;;) {
    const n = await read();
    if (n >= target) return performance.now() - t0;
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`${what}: ${n} of ${target} after ${TIMEOUT_MS} ms`);
    await sleep(500);
  }
}

async function sumOf(api: JsonClient, path: string, count: (item: any) => number): Promise<number> {
  const res = await api.call('GET', path);
  if (res.status !== 200) return 0;
  return (res.body.items as any[]).reduce((s, item) => s + count(item), 0);
}

async function main(): Promise<void> {
  const etcd = await startAnyEtcd();
  const server = await startBenchServer([etcd.endpoint], [`--simulated-nodes=${NODES}`]);
  const api = jsonClient(server, 64);
  const pid = server.child.pid!;
  try {
    const t0 = performance.now();
    const ready = (n: any) =>
      Number((n.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True'));
    const nodesMs = await until('nodes Ready', t0, NODES, () => sumOf(api, '/api/v1/nodes', ready));
    const cpu0 = cpuMs(pid);
    const start = performance.now();
    const per = Math.ceil(PODS / DEPLOYMENTS);
    await Promise.all(
      Array.from({ length: DEPLOYMENTS }, async (_, i) => {
        const res = await api.call('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment(i, per));
        if (res.status !== 201) throw new Error(`deployment create: ${res.status} ${res.body?.message ?? ''}`);
      }),
    );
    const total = per * DEPLOYMENTS;
    const deployments = `/apis/apps/v1/namespaces/${NS}/deployments?resourceVersion=0`;
    const createdMs = await until('pods created', start, total, () =>
      sumOf(api, deployments, (d) => d.status?.replicas ?? 0),
    );
    const availableMs = await until('pods Available', start, total, () =>
      sumOf(api, deployments, (d) => d.status?.availableReplicas ?? 0),
    );
    const pods = await api.call('GET', `/api/v1/namespaces/${NS}/pods?resourceVersion=0`);
    const items = pods.body.items as any[];
    const bound = items.filter((p) => p.spec?.nodeName).length;
    const running = items.filter((p) => p.status?.phase === 'Running').length;
    const cpuS = (cpuMs(pid) - cpu0) / 1000;
    console.log(
      `ck-apiserver workload scale (${process.version}): ${NODES} simulated nodes, ${total} pods in ${DEPLOYMENTS} Deployments`,
    );
    console.log('');
    console.log('| step | seconds |');
    console.log('|---|---:|');
    console.log(`| ${NODES} nodes Ready (from the server's start) | ${(nodesMs / 1000).toFixed(1)} |`);
    console.log(`| ${total} pods created (status.replicas) | ${(createdMs / 1000).toFixed(1)} |`);
    console.log(`| ${total} pods Available, every Deployment complete | ${(availableMs / 1000).toFixed(1)} |`);
    console.log('');
    console.log(
      `pods bound ${bound}, Running ${running} of ${items.length}; server CPU ${cpuS.toFixed(1)} s over the run`,
    );
    console.log(
      `server memory: ${(rssKiB(pid) / 1024).toFixed(0)} MiB resident at the end, ${(peakRssKiB(pid) / 1024).toFixed(0)} MiB at its peak`,
    );
  } finally {
    await api.close();
    await server.stop();
    await etcd.stop();
  }
}

await main();
