/**
 * The scheduler (src/controllers/scheduler/) started on an in-process server, seen through the
 * API as a user sees it: with no nodes a pod gets `PodScheduled=False` with upstream's
 * `no nodes available to schedule pods`; with a small node and two control-plane nodes a pod
 * that fits nowhere gets upstream's FitError message (with the preemption part) and a
 * `FailedScheduling` event, a small pod is bound to the node that fits with a `Scheduled`
 * event, and the big pod is bound as soon as a node with room is added.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { Scheduler } from '../../src/controllers/scheduler/scheduler.js';
import { useTestServer } from '../helpers/in-process.js';

// The server's own scheduler is off: this test runs one with a fixed tie-breaker.
const srv = useTestServer({ scheduler: 'false' });
const NS = 'scheduler-it';
const PODS = `/api/v1/namespaces/${NS}/pods`;
let scheduler: Scheduler | undefined;

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  scheduler = new Scheduler(srv.running.deps.registry, pino({ level: 'silent' }), { random: () => 0 });
  scheduler.start();
});

afterAll(async () => {
  scheduler?.stop();
  for (const n of ['small', 'cp-1', 'cp-2', 'big']) await srv.api('DELETE', `/api/v1/nodes/${n}`);
});

async function addNode(name: string, cpu: string, taints: unknown[] = [], labels: Record<string, string> = {}) {
  const created = await srv.api('POST', '/api/v1/nodes', {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: { taints },
  });
  expect(created.status).toBe(201);
  const status = { capacity: { cpu, memory: '8Gi', pods: '110' }, allocatable: { cpu, memory: '8Gi', pods: '110' } };
  const res = await srv.api(
    'PATCH',
    `/api/v1/nodes/${name}/status`,
    { status },
    {
      'content-type': 'application/merge-patch+json',
    },
  );
  expect(res.status).toBe(200);
}

async function addPod(name: string, cpu: string, extra: Record<string, unknown> = {}) {
  const res = await srv.api('POST', PODS, {
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }], ...extra },
  });
  expect(res.status).toBe(201);
}

const pod = async (name: string) => (await srv.api('GET', `${PODS}/${name}`)).body;
const scheduledCondition = async (name: string) =>
  ((await pod(name)).status?.conditions ?? []).find((c: { type: string }) => c.type === 'PodScheduled');

async function waitForNode(name: string): Promise<string> {
  let node = '';
  await vi.waitFor(
    async () => {
      node = (await pod(name)).spec.nodeName;
      expect(node).toBeTruthy();
    },
    { timeout: 10_000, interval: 100 },
  );
  return node;
}

async function eventsFor(name: string): Promise<{ reason: string; note: string; type: string; action: string }[]> {
  const res = await srv.api('GET', `/apis/events.k8s.io/v1/namespaces/${NS}/events`);
  return res.body.items.filter((e: { regarding: { name: string } }) => e.regarding.name === name);
}

describe('scheduler', () => {
  it('marks a pod unschedulable while there are no nodes', async () => {
    await addPod('early', '100m');
    await vi.waitFor(
      async () => {
        const c = await scheduledCondition('early');
        expect(c).toMatchObject({
          status: 'False',
          reason: 'Unschedulable',
          message: 'no nodes available to schedule pods',
        });
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('binds a pod to the node that fits, and explains a pod that fits nowhere', async () => {
    const cp = [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }];
    await addNode('small', '1');
    await addNode('cp-1', '8', cp);
    await addNode('cp-2', '8', cp);
    // The pod waiting for nodes is retried when they appear.
    expect(await waitForNode('early')).toBe('small');
    await addPod('huge', '2');
    const message =
      '0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint ' +
      '{node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: ' +
      '1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.';
    await vi.waitFor(
      async () =>
        expect(await scheduledCondition('huge')).toMatchObject({ status: 'False', reason: 'Unschedulable', message }),
      { timeout: 10_000, interval: 100 },
    );
    await vi.waitFor(async () =>
      expect(await eventsFor('huge')).toContainEqual(
        expect.objectContaining({ reason: 'FailedScheduling', type: 'Warning', action: 'Scheduling', note: message }),
      ),
    );
    await addPod('tiny', '200m');
    expect(await waitForNode('tiny')).toBe('small');
    expect(await scheduledCondition('tiny')).toMatchObject({ status: 'True' });
    await vi.waitFor(async () =>
      expect(await eventsFor('tiny')).toContainEqual(
        expect.objectContaining({
          reason: 'Scheduled',
          type: 'Normal',
          action: 'Binding',
          note: `Successfully assigned ${NS}/tiny to small`,
        }),
      ),
    );
  });

  it('schedules the waiting pod once a node with room is added', async () => {
    await addNode('big', '4');
    expect(await waitForNode('huge')).toBe('big');
    expect(await scheduledCondition('huge')).toMatchObject({ status: 'True' });
  });

  it('counts pods already placed against allocatable, and honours tolerations and nodeSelector', async () => {
    // small has 1 cpu and holds 300m: 800m no longer fits there; big holds 2 of 4.
    await addPod('fills', '800m', { nodeSelector: { 'kubernetes.io/hostname': 'small' } });
    await vi.waitFor(
      async () =>
        expect((await scheduledCondition('fills'))?.message).toBe(
          "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector, " +
            '2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/4 nodes are ' +
            'available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.',
        ),
      { timeout: 10_000, interval: 100 },
    );
    await addPod('tolerant', '6', {
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
    });
    expect(await waitForNode('tolerant')).toMatch(/^cp-[12]$/);
  });

  it('leaves pods of another scheduler alone', async () => {
    await addPod('other', '100m', { schedulerName: 'my-scheduler' });
    await new Promise((r) => setTimeout(r, 500));
    const p = await pod('other');
    expect(p.spec.nodeName).toBeUndefined();
    expect(p.status?.conditions ?? []).not.toContainEqual(expect.objectContaining({ type: 'PodScheduled' }));
  });
});
