/**
 * The node lifecycle (src/controllers/nodelifecycle/) and taint eviction
 * (src/controllers/tainteviction/) controllers on a server with 2 simulated nodes, seen through
 * the API: a node whose heartbeat is paused (annotation `sim.ck.io/heartbeat: paused`) turns
 * Ready Unknown (NodeStatusUnknown, "Kubelet stopped posting node status."), gets the
 * `node.kubernetes.io/unreachable` taints (NoSchedule and NoExecute), its pod is marked not
 * Ready and, tolerating the taint for 2 s, is evicted after them; once the annotation is
 * removed the node is Ready again and the taints are gone. The TTL controller annotates every
 * node of this small cluster `node.alpha.kubernetes.io/ttl: "0"`.
 *
 * The simulated nodes renew their Leases every 10 s (the server's defaults), so the test's
 * grace period is 12 s: the pause is seen 2 to 12 s after it begins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { NodeLifecycleController } from '../../src/controllers/nodelifecycle/controller.js';
import { TaintEvictionController } from '../../src/controllers/tainteviction/controller.js';
import { TtlController } from '../../src/controllers/ttl/controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer({
  simulatedNodes: 2,
  controllers: ['*', '-nodelifecycle', '-taint-eviction-controller', '-ttl'],
});
const NS = 'node-lifecycle';
const NODE = '/api/v1/nodes/sim-node-1';
const POD = `/api/v1/namespaces/${NS}/pods/tolerant`;
const UNREACHABLE = 'node.kubernetes.io/unreachable';
let lifecycle: NodeLifecycleController;
let eviction: TaintEvictionController;
let ttl: TtlController;

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  const logger = pino({ level: 'silent' });
  lifecycle = new NodeLifecycleController(srv.running.deps.registry, logger, {
    nodeMonitorPeriodMs: 250,
    nodeMonitorGracePeriodMs: 12_000,
    nodeStartupGracePeriodMs: 12_000,
  });
  eviction = new TaintEvictionController(srv.running.deps.registry, logger);
  ttl = new TtlController(srv.running.deps.registry, logger);
  lifecycle.start();
  eviction.start();
  ttl.start();
});

afterAll(() => {
  lifecycle?.stop();
  eviction?.stop();
  ttl?.stop();
});

/** Poll `read` every 100 ms until `done` holds (`ms` at most); answers the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const node = async () => (await srv.api('GET', NODE)).body;
const ready = (n: any) => n.status?.conditions?.find((c: any) => c.type === 'Ready');
const taintKeys = (n: any) => ((n.spec?.taints ?? []) as any[]).map((t) => `${t.key}:${t.effect}`).sort();
const annotate = (value: string | null) =>
  srv.api(
    'PATCH',
    NODE,
    { metadata: { annotations: { 'sim.ck.io/heartbeat': value } } },
    {
      'content-type': 'application/merge-patch+json',
    },
  );

describe('node lifecycle with simulated nodes', () => {
  it('marks a silent node Unknown, taints it, evicts its pod after its toleration, and recovers', async () => {
    await until(node, (n) => ready(n)?.status === 'True', 'sim-node-1 Ready');
    const created = await srv.api('POST', `/api/v1/namespaces/${NS}/pods`, {
      metadata: { name: 'tolerant' },
      spec: {
        nodeName: 'sim-node-1',
        containers: [{ name: 'c', image: 'nginx' }],
        tolerations: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 }],
      },
    });
    expect(created.status).toBe(201);
    const podReady = (p: any) => p.status?.conditions?.find((c: any) => c.type === 'Ready')?.status;
    await until(
      async () => (await srv.api('GET', POD)).body,
      (p) => podReady(p) === 'True',
      'the pod Ready',
    );

    expect((await annotate('paused')).status).toBe(200);
    const silent = await until(node, (n) => ready(n)?.status === 'Unknown', 'sim-node-1 Unknown', 16_000);
    expect(ready(silent)).toMatchObject({
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    const tainted = await until(node, (n) => taintKeys(n).length === 2, 'the unreachable taints', 3_000);
    expect(taintKeys(tainted)).toEqual([`${UNREACHABLE}:NoExecute`, `${UNREACHABLE}:NoSchedule`]);
    const taintedAt = Date.now();
    // The pod is marked not Ready, still there while its 2 s toleration runs, then evicted.
    const marked = (await srv.api('GET', POD)).body;
    expect(podReady(marked)).toBe('False');
    await until(
      async () => (await srv.api('GET', POD)).status,
      (s) => s === 404,
      'the pod evicted',
      6_000,
    );
    expect(Date.now() - taintedAt).toBeGreaterThanOrEqual(1_500);
    // The other node kept its heartbeat.
    expect(ready((await srv.api('GET', '/api/v1/nodes/sim-node-0')).body)?.status).toBe('True');

    expect((await annotate(null)).status).toBe(200);
    const back = await until(node, (n) => ready(n)?.status === 'True' && taintKeys(n).length === 0, 'recovery', 5_000);
    expect(ready(back)?.reason).toBe('KubeletReady');
  }, 45_000);

  it('plays a Node a user creates with the simulated label: status, pod CIDR, Lease, pods', async () => {
    const created = await srv.api('POST', '/api/v1/nodes', {
      metadata: { name: 'my-node', labels: { 'sim.ck.io/simulated': 'true' } },
      status: { capacity: { cpu: '4', memory: '8Gi', pods: '20' } },
    });
    expect(created.status).toBe(201);
    const played = await until(
      async () => (await srv.api('GET', '/api/v1/nodes/my-node')).body,
      (n) => ready(n)?.status === 'True' && !!n.spec?.podCIDR,
      'my-node played',
      5_000,
    );
    // What the user gave is kept; what they left empty is filled in as a kubelet would.
    expect(played.status.capacity).toMatchObject({ cpu: '4', memory: '8Gi', pods: '20' });
    expect(played.status.allocatable).toMatchObject({ cpu: '4', memory: '8Gi', pods: '20' });
    expect(played.status.nodeInfo.operatingSystem).toBe('linux');
    expect(played.status.addresses.map((a: any) => a.type)).toEqual(['InternalIP', 'Hostname']);
    expect(
      (await srv.api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/my-node')).status,
    ).toBe(200);
    await srv.api('POST', `/api/v1/namespaces/${NS}/pods`, {
      metadata: { name: 'on-my-node' },
      spec: { nodeName: 'my-node', containers: [{ name: 'c', image: 'nginx' }] },
    });
    const pod = await until(
      async () => (await srv.api('GET', `/api/v1/namespaces/${NS}/pods/on-my-node`)).body,
      (p) => p.status?.phase === 'Running',
      'the pod running on my-node',
      5_000,
    );
    expect(pod.status.hostIP).toBe(played.status.addresses[0].address);
  });

  it('annotates every node with the TTL of a small cluster', async () => {
    const nodes = await until(
      async () => (await srv.api('GET', '/api/v1/nodes')).body.items as any[],
      (items) =>
        items.length >= 2 && items.every((n) => n.metadata.annotations?.['node.alpha.kubernetes.io/ttl'] === '0'),
      'the ttl annotations',
      5_000,
    );
    expect(nodes.map((n) => n.metadata.name)).toContain('sim-node-0');
  });
});
