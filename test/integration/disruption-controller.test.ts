/**
 * The disruption controller (src/controllers/disruption/) on a server with 2 simulated nodes,
 * seen through the API: a Deployment of 2 Ready pods under a PodDisruptionBudget with
 * minAvailable 2 gets currentHealthy 2, desiredHealthy 2, expectedPods 2, disruptionsAllowed 0
 * and DisruptionAllowed False (InsufficientPods), so an eviction is refused with 429 and
 * upstream's message; scaled to 3 with the pods Ready, disruptionsAllowed is 1 (SufficientPods)
 * and one eviction succeeds: the pod is deleted, the Deployment replaces it, and the budget
 * is back at currentHealthy 3 with an empty disruptedPods. A DisruptionTarget condition left on
 * a pod that is not deleted is set back to False once stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { DisruptionController } from '../../src/controllers/disruption/disruption-controller.js';
import { useTestServer } from '../helpers/in-process.js';

// The server's own disruption controller is left out: the test runs one with a short resync.
const srv = useTestServer({ simulatedNodes: 2, controllers: ['*', '-disruption'] });
const NS = 'disruption';
const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments`;
const PDB = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
let controller: DisruptionController;

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  controller = new DisruptionController(srv.running.deps.registry, pino({ level: 'silent' }), {
    stalePodDisruptionTimeoutMs: 1_000,
  });
  controller.start();
});

afterAll(() => controller?.stop());

/** Poll `read` every 100 ms until `done` holds (10 s at most); answers the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pdbStatus = async () => (await srv.api('GET', `${PDB}/web`)).body.status;
const readyPods = async () =>
  ((await srv.api('GET', `${PODS}?labelSelector=app%3Dweb`)).body.items as any[]).filter(
    (p) =>
      !p.metadata.deletionTimestamp &&
      p.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
  );
const evict = (pod: string) =>
  srv.api('POST', `${PODS}/${pod}/eviction`, {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: pod, namespace: NS },
  });

describe('disruption controller with simulated nodes', () => {
  it('keeps the budget, refuses an eviction it forbids and allows one once scaled', async () => {
    const deployment = {
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            // The simulated node completes a deletion after the grace period.
            terminationGracePeriodSeconds: 1,
            containers: [{ name: 'c', image: 'nginx' }],
          },
        },
      },
    };
    expect((await srv.api('POST', DEPLOY, deployment)).status).toBe(201);
    const pdb = { metadata: { name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } };
    expect((await srv.api('POST', PDB, pdb)).status).toBe(201);

    const held = await until(
      pdbStatus,
      (s) => s?.currentHealthy === 2 && s?.observedGeneration === 1,
      'currentHealthy 2',
    );
    expect(held).toMatchObject({ currentHealthy: 2, desiredHealthy: 2, expectedPods: 2, disruptionsAllowed: 0 });
    expect(held.conditions).toEqual([
      expect.objectContaining({
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        observedGeneration: 1,
      }),
    ]);

    const [first] = await readyPods();
    const refused = await evict(first.metadata.name);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(refused.body.details.causes).toEqual([
      { reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' },
    ]);

    const scaled = await srv.api(
      'PATCH',
      `${DEPLOY}/web`,
      { spec: { replicas: 3 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(scaled.status).toBe(200);
    await until(readyPods, (p) => p.length === 3, '3 Ready pods');
    const allowed = await until(pdbStatus, (s) => s?.disruptionsAllowed === 1, 'disruptionsAllowed 1');
    expect(allowed).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 });
    expect(allowed.conditions[0]).toMatchObject({ status: 'True', reason: 'SufficientPods' });

    const evicted = await evict(first.metadata.name);
    expect(evicted.status).toBe(201);
    const gone = await srv.api('GET', `${PODS}/${first.metadata.name}`);
    expect(gone.status === 404 || Boolean(gone.body.metadata?.deletionTimestamp)).toBe(true);
    // The Deployment replaces the pod; once it is Ready the budget allows one disruption again,
    // and the evicted pod, deleted, has left disruptedPods.
    const replaced = await until(
      async () => ({ pods: (await readyPods()).map((p) => p.metadata.name), status: await pdbStatus() }),
      // minAvailable as an integer counts the selected pods: 4 while the evicted one terminates.
      (v) => v.pods.length === 3 && v.status?.currentHealthy === 3 && v.status?.expectedPods === 3,
      'the replacement Ready and the evicted pod gone',
    );
    expect(replaced.pods).not.toContain(first.metadata.name);
    expect(replaced.status).toMatchObject({ disruptionsAllowed: 1, desiredHealthy: 2 });
    expect(replaced.status.disruptedPods ?? {}).toEqual({});
  }, 20_000);

  it('sets a stale DisruptionTarget condition of a pod not deleted back to False', async () => {
    const naked = { metadata: { name: 'marked' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await srv.api('POST', PODS, naked)).status).toBe(201);
    const ready = (c: any) => c.type === 'Ready' && c.status === 'True';
    const pod = await until(
      async () => (await srv.api('GET', `${PODS}/marked`)).body,
      (p) => (p.status?.conditions ?? []).some(ready),
      'the pod Ready',
    );
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const target = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'EvictionByEvictionAPI',
      lastTransitionTime: at,
    };
    const marked = await srv.api(
      'PATCH',
      `${PODS}/${pod.metadata.name}/status`,
      { status: { conditions: [target] } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    expect(marked.status).toBe(200);
    const condition = async () =>
      ((await srv.api('GET', `${PODS}/${pod.metadata.name}`)).body.status.conditions as any[]).find(
        (c) => c.type === 'DisruptionTarget',
      );
    // The timeout is 1 s here (2 minutes by default).
    const cleared = await until(condition, (c) => c?.status === 'False', 'DisruptionTarget False');
    expect(cleared.reason).toBeUndefined();
  });
});
