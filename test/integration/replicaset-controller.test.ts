/**
 * The ReplicaSet and ReplicationController controllers (src/controllers/replicaset/) started on
 * an in-process server, seen through the API as a user sees them: a ReplicaSet of 3 creates 3
 * pods it controls; status counts follow pods marked Ready through `/status` (as a kubelet
 * writes); Events and managedFields name the controller; scaling to 1 deletes the unscheduled
 * and the not-ready pods first; a deleted pod is
 * replaced; a matching orphan is adopted; availability waits for minReadySeconds; a
 * ReplicationController (map selector) gets its pods the same way.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { ReplicaSetController, ReplicationManager } from '../../src/controllers/replicaset/controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'rs-controller';
const RS = `/apis/apps/v1/namespaces/${NS}/replicasets`;
const RC = `/api/v1/namespaces/${NS}/replicationcontrollers`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const controllers: { start(): void; stop(): void }[] = [];

interface PodView {
  metadata: {
    name: string;
    uid: string;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string; controller?: boolean }[];
  };
  spec: { nodeName?: string };
}

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  const logger = pino({ level: 'silent' });
  const registry = srv.running.deps.registry;
  controllers.push(new ReplicaSetController(registry, logger, { resyncMs: 5_000 }));
  controllers.push(new ReplicationManager(registry, logger, { resyncMs: 5_000 }));
  for (const c of controllers) c.start();
});

afterAll(() => {
  for (const c of controllers) c.stop();
});

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/** The active (not terminating) pods controlled by `uid`, by name. */
async function activePodsOf(uid: string): Promise<PodView[]> {
  const items = (await srv.api('GET', PODS)).body.items as PodView[];
  return items
    .filter((p) => !p.metadata.deletionTimestamp)
    .filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

async function waitForPods(uid: string, n: number): Promise<PodView[]> {
  let pods: PodView[] = [];
  await vi.waitFor(
    async () => {
      pods = await activePodsOf(uid);
      expect(pods).toHaveLength(n);
    },
    { timeout: 10_000, interval: 100 },
  );
  return pods;
}

async function waitForStatus(path: string, want: Record<string, number>): Promise<void> {
  await vi.waitFor(async () => expect((await srv.api('GET', path)).body.status).toMatchObject(want), {
    timeout: 10_000,
    interval: 100,
  });
}

async function bind(name: string, node: string): Promise<void> {
  const res = await srv.api('POST', `${PODS}/${name}/binding`, {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name },
    target: { kind: 'Node', name: node },
  });
  expect(res.status, res.text).toBe(201);
}

/** Write the pod's status as a kubelet does: Running and Ready (since now). */
async function markReady(name: string): Promise<void> {
  const pod = (await srv.api('GET', `${PODS}/${name}`)).body;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  pod.status = {
    ...pod.status,
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
  };
  const res = await srv.api('PUT', `${PODS}/${name}/status`, pod);
  expect(res.status, res.text).toBe(200);
}

describe('ReplicaSet controller', () => {
  let uid = '';

  it('creates 3 pods the ReplicaSet controls, and counts them in its status', async () => {
    const res = await srv.api('POST', RS, {
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template('web') },
    });
    expect(res.status, res.text).toBe(201);
    uid = res.body.metadata.uid;
    const pods = await waitForPods(uid, 3);
    for (const p of pods) expect(p.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    await waitForStatus(`${RS}/web`, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 0, observedGeneration: 1 });
    const pod = (await srv.api('GET', `${PODS}/${pods[0].metadata.name}`)).body;
    expect(pod.metadata.managedFields.map((f: { manager: string }) => f.manager)).toEqual(['kube-controller-manager']);
  });

  it('records a SuccessfulCreate Event per pod, as kubectl describe shows', async () => {
    const names = (await activePodsOf(uid)).map((p) => `Created pod: ${p.metadata.name}`);
    await vi.waitFor(
      async () => {
        const items = (await srv.api('GET', `/api/v1/namespaces/${NS}/events`)).body.items as {
          reason: string;
          message: string;
          type: string;
          source: { component: string };
          involvedObject: { kind: string; name: string; uid: string };
        }[];
        const created = items.filter((e) => e.involvedObject.uid === uid && e.reason === 'SuccessfulCreate');
        expect(created.map((e) => e.message).sort()).toEqual(names.sort());
        expect(created[0]).toMatchObject({
          type: 'Normal',
          source: { component: 'replicaset-controller' },
          involvedObject: { kind: 'ReplicaSet', name: 'web' },
        });
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('counts pods made Ready through /status as ready and available', async () => {
    const [a, b] = await activePodsOf(uid);
    await bind(a.metadata.name, 'node-1');
    await bind(b.metadata.name, 'node-1');
    await markReady(a.metadata.name);
    await waitForStatus(`${RS}/web`, { replicas: 3, readyReplicas: 1, availableReplicas: 1 });
  });

  it('scaling to 1 deletes the unscheduled and the not-ready pods first', async () => {
    // The first pod (by name) is bound and Ready, the second bound only, the third unscheduled.
    const [ready] = await activePodsOf(uid);
    expect(ready.spec.nodeName).toBe('node-1');
    const res = await srv.api(
      'PATCH',
      `${RS}/web`,
      { spec: { replicas: 1 } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(res.status, res.text).toBe(200);
    const after = await waitForPods(uid, 1);
    expect(after.map((p) => p.metadata.name)).toEqual([ready.metadata.name]);
    await waitForStatus(`${RS}/web`, { replicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 2 });
  });

  it('replaces a deleted pod', async () => {
    const [only] = await activePodsOf(uid);
    const res = await srv.api('DELETE', `${PODS}/${only.metadata.name}`, { gracePeriodSeconds: 0 });
    expect(res.status, res.text).toBe(200);
    await vi.waitFor(
      async () => {
        const pods = await activePodsOf(uid);
        expect(pods).toHaveLength(1);
        expect(pods[0].metadata.name).not.toBe(only.metadata.name);
      },
      { timeout: 10_000, interval: 100 },
    );
    await waitForStatus(`${RS}/web`, { replicas: 1, readyReplicas: 0, availableReplicas: 0 });
  });

  it('adopts a matching orphan (and then deletes its unscheduled surplus pod)', async () => {
    const res = await srv.api('POST', PODS, {
      metadata: { name: 'orphan', labels: { app: 'web' } },
      spec: { nodeName: 'node-2', containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(res.status, res.text).toBe(201);
    await vi.waitFor(async () => expect((await activePodsOf(uid)).map((p) => p.metadata.name)).toEqual(['orphan']), {
      timeout: 10_000,
      interval: 100,
    });
    const orphan = (await srv.api('GET', `${PODS}/orphan`)).body;
    expect(orphan.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid, controller: true, blockOwnerDeletion: true },
    ]);
  });

  it('counts a pod available only after minReadySeconds', async () => {
    const res = await srv.api('POST', RS, {
      metadata: { name: 'slow' },
      spec: { replicas: 1, minReadySeconds: 2, selector: { matchLabels: { app: 'slow' } }, template: template('slow') },
    });
    expect(res.status, res.text).toBe(201);
    const [pod] = await waitForPods(res.body.metadata.uid, 1);
    await bind(pod.metadata.name, 'node-1');
    await markReady(pod.metadata.name);
    await waitForStatus(`${RS}/slow`, { readyReplicas: 1, availableReplicas: 0 });
    await waitForStatus(`${RS}/slow`, { readyReplicas: 1, availableReplicas: 1 });
  });
});

describe('ReplicationController controller', () => {
  it('creates the pods of a ReplicationController selecting by a label map', async () => {
    const res = await srv.api('POST', RC, {
      metadata: { name: 'legacy' },
      spec: { replicas: 2, selector: { app: 'legacy' }, template: template('legacy') },
    });
    expect(res.status, res.text).toBe(201);
    const pods = await waitForPods(res.body.metadata.uid, 2);
    for (const p of pods) expect(p.metadata.name).toMatch(/^legacy-/);
    await waitForStatus(`${RC}/legacy`, { replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
  });
});
