/**
 * Configurable stages of the simulated nodes (src/controllers/simulated-nodes): kwok Stage
 * documents from a config file replace the built-in stages (status merge patch, Event,
 * finalizers, delete, delay from an annotation); and, with the built-in stages, per-pod
 * annotations (image pull error, ignore SIGTERM) as a user sees them through the API.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadSimulatedNodesConfig } from '../../src/controllers/simulated-nodes/config-file.js';
import { SimulatedNodesController } from '../../src/controllers/simulated-nodes/simulated-nodes-controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const PODS = '/api/v1/namespaces/default/pods';
const logger = pino({ level: 'silent' });
const controllers: SimulatedNodesController[] = [];

afterAll(async () => {
  for (const c of controllers) c.stop();
  await Promise.all(controllers.map((c) => c.settled()));
});

const STAGES = `
podStartMs: 100
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: { name: pod-running }
spec:
  resourceRef: { apiGroup: v1, kind: Pod }
  selector:
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: DoesNotExist }
    - { key: .status.podIP, operator: DoesNotExist }
  delay: { durationMilliseconds: 200 }
  next:
    event: { type: Normal, reason: Started, message: Started by a stage }
    statusTemplate: |
      phase: Running
      conditions:
      - { type: Ready, status: "True" }
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: { name: pod-complete }
spec:
  resourceRef: { kind: Pod }
  selector:
    matchLabels: { workload: batch }
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: DoesNotExist }
    - { key: .status.phase, operator: In, values: [Running] }
  delay:
    durationFrom: { expressionFrom: '.metadata.annotations["complete-after"]' }
  next:
    statusTemplate: |
      phase: Succeeded
      conditions:
      - { type: Ready, status: "False", reason: PodCompleted }
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: { name: pod-delete }
spec:
  resourceRef: { kind: Pod }
  selector:
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: Exists }
  next:
    finalizers: { empty: true }
    delete: true
`;

function podBody(name: string, nodeName: string, meta: object = {}, grace = 2) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...meta },
    spec: { nodeName, terminationGracePeriodSeconds: grace, containers: [{ name: 'app', image: 'nginx:1.27' }] },
  };
}
const create = async (body: object) => {
  const res = await srv.api('POST', PODS, body);
  expect(res.status, res.text).toBe(201);
};
const get = async (name: string) => (await srv.api('GET', `${PODS}/${name}`)).body;
const gone = async (name: string) => (await srv.api('GET', `${PODS}/${name}`)).status === 404;

describe('kwok Stages from a config file', () => {
  it('plays the Stages in place of the built-in ones', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'stages-')), 'sim.yaml');
    writeFileSync(file, STAGES);
    const config = loadSimulatedNodesConfig(file);
    const controller = new SimulatedNodesController(srv.running.deps.registry, logger, {
      count: 1,
      namePrefix: 'stage-node-',
      ...config,
    });
    controllers.push(controller);
    controller.start();

    await create(podBody('svc', 'stage-node-0', { finalizers: ['example.com/keep'] }));
    await create(
      podBody('batch', 'stage-node-0', { labels: { workload: 'batch' }, annotations: { 'complete-after': '500ms' } }),
    );
    const svc = await vi.waitFor(
      async () => {
        const p = await get('svc');
        expect(p.status.phase).toBe('Running');
        return p;
      },
      { timeout: 10_000 },
    );
    expect(svc.status.podIP).toMatch(/^10\.64\.0\.\d+$/);
    expect(svc.status.hostIP).toBe('172.18.0.2');
    expect(svc.status.conditions).toEqual([{ type: 'Ready', status: 'True' }]);
    // Built-in stages would have written container statuses; the Stage did not.
    expect(svc.status.containerStatuses).toBeUndefined();
    const events = (await srv.api('GET', '/api/v1/namespaces/default/events')).body.items as any[];
    expect(events.find((e) => e.involvedObject.name === 'svc' && e.reason === 'Started')).toMatchObject({
      message: 'Started by a stage',
      source: { component: 'kubelet', host: 'stage-node-0' },
    });

    await vi.waitFor(async () => expect((await get('batch')).status.phase).toBe('Succeeded'), { timeout: 10_000 });
    expect((await get('svc')).status.phase).toBe('Running');

    const del = await srv.api('DELETE', `${PODS}/svc`);
    expect(del.status, del.text).toBe(200);
    await vi.waitFor(async () => expect(await gone('svc')).toBe(true), { timeout: 10_000 });
    // A controller plays every labelled simulated node, the next test's too: one at a time.
    controller.stop();
    await controller.settled();
  });
});

describe('per-pod annotations with the built-in stages', () => {
  it('reports an image pull error, and honours the grace period of a pod ignoring SIGTERM', async () => {
    const controller = new SimulatedNodesController(srv.running.deps.registry, logger, {
      count: 1,
      namePrefix: 'ann-node-',
      podStartMs: 100,
      restartBackoffMs: 2000,
      podTerminationMs: 100,
    });
    controllers.push(controller);
    controller.start();
    await create(podBody('nopull', 'ann-node-0', { annotations: { 'sim.ck.io/image-pull-error': 'true' } }));
    await create(podBody('stubborn', 'ann-node-0', { annotations: { 'sim.ck.io/ignore-sigterm': 'true' } }, 5));
    await create(podBody('quick', 'ann-node-0'));
    const reasons = new Set<string>();
    await vi.waitFor(
      async () => {
        const p = await get('nopull');
        const reason = p.status?.containerStatuses?.[0]?.state?.waiting?.reason;
        if (reason) reasons.add(reason);
        expect(reasons.has('ImagePullBackOff')).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(reasons.has('ErrImagePull')).toBe(true);
    expect((await get('nopull')).status.phase).toBe('Pending');

    for (const name of ['stubborn', 'quick'])
      await vi.waitFor(async () => expect((await get(name)).status.phase).toBe('Running'), { timeout: 10_000 });
    const start = Date.now();
    await srv.api('DELETE', `${PODS}/stubborn`);
    await srv.api('DELETE', `${PODS}/quick`);
    await vi.waitFor(async () => expect(await gone('quick')).toBe(true), { timeout: 5_000, interval: 50 });
    expect(await gone('stubborn')).toBe(false);
    await vi.waitFor(async () => expect(await gone('stubborn')).toBe(true), { timeout: 10_000, interval: 100 });
    // deletionTimestamp has whole seconds: at least 4 s of the 5 s period have passed.
    expect(Date.now() - start).toBeGreaterThanOrEqual(4000);
  });
});
