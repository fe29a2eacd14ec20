/**
 * Simulated nodes (src/controllers/simulated-nodes): with N = 0 the controller writes nothing;
 * with N nodes they register Ready with their pod CIDRs and renew their Leases in
 * kube-node-lease; a pod bound through pods/binding to one of them runs and becomes Ready with
 * an IP from the node's pod CIDR; a pod with the exit annotations ends Succeeded or Failed; a
 * pod deleted with a grace period is removed once the period ends; pods on other nodes are
 * left alone. The controller is started by the test, as the leader would.
 */
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SimulatedNodesController } from '../../src/controllers/simulated-nodes/simulated-nodes-controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const PODS = '/api/v1/namespaces/default/pods';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
const logger = pino({ level: 'silent' });
let controller: SimulatedNodesController | undefined;

afterAll(async () => {
  controller?.stop();
  await controller?.settled();
});

function podBody(name: string, extra: { nodeName?: string; restartPolicy?: string; annotations?: object } = {}) {
  const { annotations, ...spec } = extra;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}

async function createPod(body: object): Promise<void> {
  const res = await srv.api('POST', PODS, body);
  expect(res.status, res.text).toBe(201);
}

const pod = async (name: string) => (await srv.api('GET', `${PODS}/${name}`)).body;
const condition = (p: any, type: string) => p.status?.conditions?.find((c: any) => c.type === type)?.status;

describe('simulated nodes', () => {
  it('with N = 0 registers no node, no lease, and leaves pods alone', async () => {
    const idle = new SimulatedNodesController(srv.running.deps.registry, logger, { count: 0 });
    idle.start();
    await createPod(podBody('early', { nodeName: 'sim-node-0' }));
    await new Promise((r) => setTimeout(r, 1500));
    idle.stop();
    expect((await srv.api('GET', '/api/v1/nodes')).body.items).toEqual([]);
    expect((await srv.api('GET', LEASES)).body.items).toEqual([]);
    const early = await pod('early');
    expect(early.status.phase).toBe('Pending');
    expect(early.status.containerStatuses).toBeUndefined();
  });

  it('registers N nodes Ready with pod CIDRs and renews their leases', async () => {
    controller = new SimulatedNodesController(srv.running.deps.registry, logger, {
      count: 2,
      leaseRenewMs: 500,
      podStartMs: 200,
      finitePodRunMs: 500,
    });
    controller.start();
    const nodes = await vi.waitFor(
      async () => {
        const items = (await srv.api('GET', '/api/v1/nodes')).body.items;
        expect(items.map((n: any) => n.metadata.name).sort()).toEqual(['sim-node-0', 'sim-node-1']);
        return items;
      },
      { timeout: 10_000 },
    );
    for (const n of nodes) {
      expect(condition(n, 'Ready')).toBe('True');
      expect(n.metadata.labels['kubernetes.io/hostname']).toBe(n.metadata.name);
      expect(n.status.allocatable.pods).toBe('110');
    }
    expect(nodes.find((n: any) => n.metadata.name === 'sim-node-0').spec.podCIDR).toBe('10.64.0.0/24');
    const renewTime = async () => (await srv.api('GET', `${LEASES}/sim-node-1`)).body.spec?.renewTime;
    const first = await vi.waitFor(async () => {
      const t = await renewTime();
      expect(t).toBeTruthy();
      return t;
    });
    await vi.waitFor(async () => expect(Date.parse(await renewTime())).toBeGreaterThan(Date.parse(first)), {
      timeout: 5_000,
    });
    const lease = (await srv.api('GET', `${LEASES}/sim-node-1`)).body;
    expect(lease.spec).toMatchObject({ holderIdentity: 'sim-node-1', leaseDurationSeconds: 40 });
    expect(lease.metadata.ownerReferences[0]).toMatchObject({ kind: 'Node', name: 'sim-node-1' });
  });

  it('runs a pod bound through pods/binding: Running, Ready, an IP of the node pod CIDR', async () => {
    await createPod(podBody('web'));
    const bind = await srv.api('POST', `${PODS}/web/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'web' },
      target: { kind: 'Node', name: 'sim-node-0' },
    });
    expect(bind.status, bind.text).toBe(201);
    const web = await vi.waitFor(
      async () => {
        const p = await pod('web');
        expect(p.status.phase).toBe('Running');
        expect(condition(p, 'Ready')).toBe('True');
        return p;
      },
      { timeout: 10_000 },
    );
    expect(web.status.podIP).toMatch(/^10\.64\.0\.\d+$/);
    expect(web.status.hostIP).toBe('172.18.0.2');
    expect(web.status.containerStatuses[0]).toMatchObject({ name: 'app', ready: true, started: true });
    expect(web.status.conditions.map((c: any) => c.type)).toEqual([
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ]);
    // Once Ready, nothing changes: the agent writes a status only when it differs.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await pod('web')).metadata.resourceVersion).toBe(web.metadata.resourceVersion);
    // The pod bound before the nodes existed runs too, with another IP of the same range.
    const early = await vi.waitFor(async () => {
      const p = await pod('early');
      expect(p.status.phase).toBe('Running');
      return p;
    });
    expect(early.status.podIP).toMatch(/^10\.64\.0\.\d+$/);
    expect(early.status.podIP).not.toBe(web.status.podIP);
  });

  it('ends pods with the exit annotations Succeeded or Failed', async () => {
    const run = { 'sim.ck.io/run-seconds': '0.5' };
    await createPod(podBody('job-ok', { nodeName: 'sim-node-1', restartPolicy: 'Never', annotations: run }));
    const failing = { ...run, 'sim.ck.io/exit-code': '2' };
    await createPod(podBody('job-bad', { nodeName: 'sim-node-1', restartPolicy: 'Never', annotations: failing }));
    await vi.waitFor(async () => expect((await pod('job-ok')).status.phase).toBe('Succeeded'), { timeout: 10_000 });
    const bad = await vi.waitFor(
      async () => {
        const p = await pod('job-bad');
        expect(p.status.phase).toBe('Failed');
        return p;
      },
      { timeout: 10_000 },
    );
    expect(bad.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
    expect(bad.status.podIP).toMatch(/^10\.64\.1\.\d+$/);
  });

  it('removes a pod deleted with a grace period once its containers stop, a second in, before the period ends', async () => {
    await createPod(podBody('graceful', { nodeName: 'sim-node-0' }));
    await vi.waitFor(async () => expect((await pod('graceful')).status.phase).toBe('Running'), { timeout: 10_000 });
    const deleted = Date.now();
    const del = await srv.api('DELETE', `${PODS}/graceful`, { gracePeriodSeconds: 30 });
    expect(del.status, del.text).toBe(200);
    expect(del.body.metadata.deletionTimestamp).toBeTruthy();
    await new Promise((r) => setTimeout(r, 300));
    expect((await srv.api('GET', `${PODS}/graceful`)).status).toBe(200);
    await vi.waitFor(async () => expect((await srv.api('GET', `${PODS}/graceful`)).status).toBe(404), {
      timeout: 10_000,
      interval: 100,
    });
    // Long before the 30 s grace period ends, as a container ending on SIGTERM.
    expect(Date.now() - deleted).toBeLessThan(10_000);
  });

  it('leaves pods bound to a node that is not simulated alone', async () => {
    await createPod(podBody('elsewhere', { nodeName: 'real-node' }));
    await new Promise((r) => setTimeout(r, 1500));
    const p = await pod('elsewhere');
    expect(p.status.phase).toBe('Pending');
    expect(p.status.containerStatuses).toBeUndefined();
  });
});
