/**
 * The DaemonSet controller (src/controllers/daemonset/) on an in-process server with 2
 * simulated nodes, the scheduler and the other workload controllers, seen through the API as a
 * user sees it: a DaemonSet gets one Running pod on each node (pinned by a required node
 * affinity on metadata.name, bound by the scheduler), a ControllerRevision `<ds>-<hash>`, the
 * revision labels on its pods and numberReady 2; an image change rolls the pods one node at a
 * time (maxUnavailable 1) to the new revision; a nodeSelector matching no node leaves 0 pods.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { DaemonSetController } from '../../src/controllers/daemonset/controller.js';
import { useTestServer } from '../helpers/in-process.js';

// The server's own daemonset controller is left out: the test runs one with a short resync.
const srv = useTestServer({ simulatedNodes: 2, controllers: ['*', '-daemonset'] });
const NS = 'ds-controller';
const DS = `/apis/apps/v1/namespaces/${NS}/daemonsets`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
let controller: DaemonSetController;

interface PodView {
  metadata: {
    name: string;
    labels: Record<string, string>;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string }[];
  };
  spec: { nodeName?: string; affinity?: unknown; containers: { image: string }[]; tolerations?: { key?: string }[] };
  status?: { phase?: string };
}

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  controller = new DaemonSetController(srv.running.deps.registry, pino({ level: process.env.DS_LOG ?? 'silent' }), {
    resyncMs: 2_000,
  });
  controller.start();
});

afterAll(() => controller?.stop());

const daemonSet = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'agent:1' }], ...extra },
    },
  },
});

/** The DaemonSet's live pods (not terminating), by node. */
async function podsOf(uid: string): Promise<PodView[]> {
  const items = (await srv.api('GET', PODS)).body.items as PodView[];
  return items
    .filter((p) => !p.metadata.deletionTimestamp && p.metadata.ownerReferences?.some((r) => r.uid === uid))
    .sort((a, b) => (a.spec.nodeName ?? '').localeCompare(b.spec.nodeName ?? ''));
}

describe('DaemonSet controller with simulated nodes', () => {
  it('runs one pod per node, then rolls an image change one node at a time', async () => {
    const created = await srv.api('POST', DS, daemonSet('agent'));
    expect(created.status).toBe(201);
    const uid = created.body.metadata.uid as string;
    let pods: PodView[] = [];
    await vi.waitFor(
      async () => {
        pods = await podsOf(uid);
        expect(pods.map((p) => [p.spec.nodeName, p.status?.phase])).toEqual([
          ['sim-node-0', 'Running'],
          ['sim-node-1', 'Running'],
        ]);
      },
      { timeout: 15_000, interval: 200 },
    );
    const revs = (await srv.api('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revs).toHaveLength(1);
    const hash = revs[0].metadata.labels['controller-revision-hash'];
    expect(revs[0].metadata.name).toBe(`agent-${hash}`);
    expect(revs[0].revision).toBe(1);
    for (const pod of pods) {
      expect(pod.metadata.labels).toMatchObject({ 'controller-revision-hash': hash, 'pod-template-generation': '1' });
      expect(pod.spec.affinity).toEqual({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [pod.spec.nodeName] }] },
            ],
          },
        },
      });
      expect(pod.spec.tolerations?.map((t) => t.key)).toContain('node.kubernetes.io/unreachable');
    }
    await vi.waitFor(
      async () =>
        expect((await srv.api('GET', `${DS}/agent`)).body.status).toMatchObject({
          desiredNumberScheduled: 2,
          currentNumberScheduled: 2,
          numberReady: 2,
          numberAvailable: 2,
          updatedNumberScheduled: 2,
          numberMisscheduled: 0,
          observedGeneration: 1,
        }),
      { timeout: 10_000, interval: 200 },
    );

    const patched = await srv.api(
      'PATCH',
      `${DS}/agent`,
      { spec: { template: { spec: { containers: [{ name: 'c', image: 'agent:2' }] } } } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    expect(patched.status).toBe(200);
    // maxUnavailable 1: never both nodes without an available pod of either revision.
    let worst = 2;
    await vi.waitFor(
      async () => {
        const now = await podsOf(uid);
        worst = Math.min(worst, now.filter((p) => p.status?.phase === 'Running').length);
        expect(now.map((p) => [p.spec.nodeName, p.spec.containers[0].image, p.status?.phase])).toEqual([
          ['sim-node-0', 'agent:2', 'Running'],
          ['sim-node-1', 'agent:2', 'Running'],
        ]);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(worst).toBeGreaterThanOrEqual(1);
    await vi.waitFor(
      async () =>
        expect((await srv.api('GET', `${DS}/agent`)).body.status).toMatchObject({
          updatedNumberScheduled: 2,
          numberReady: 2,
          observedGeneration: 2,
        }),
      { timeout: 10_000, interval: 200 },
    );
    const after = (await srv.api('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(after.map((r: { revision: number }) => r.revision).sort()).toEqual([1, 2]);
  }, 40_000);

  it('creates no pod when the nodeSelector matches no node', async () => {
    const created = await srv.api('POST', DS, daemonSet('nowhere', { nodeSelector: { disk: 'ssd' } }));
    expect(created.status).toBe(201);
    await vi.waitFor(
      async () =>
        expect((await srv.api('GET', `${DS}/nowhere`)).body.status).toMatchObject({
          desiredNumberScheduled: 0,
          currentNumberScheduled: 0,
          observedGeneration: 1,
        }),
      { timeout: 10_000, interval: 200 },
    );
    expect(await podsOf(created.body.metadata.uid)).toEqual([]);

    // A node labelled to match gets its pod (the node's update wakes the DaemonSet).
    const labelled = await srv.api(
      'PATCH',
      '/api/v1/nodes/sim-node-1',
      { metadata: { labels: { disk: 'ssd' } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(labelled.status).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await podsOf(created.body.metadata.uid)).map((p) => [p.spec.nodeName, p.status?.phase])).toEqual([
          ['sim-node-1', 'Running'],
        ]),
      { timeout: 10_000, interval: 200 },
    );
  });

  it('replaces a deleted pod and records Events as daemonset-controller', async () => {
    const uid = (await srv.api('GET', `${DS}/agent`)).body.metadata.uid as string;
    const [first] = await podsOf(uid);
    expect((await srv.api('DELETE', `${PODS}/${first.metadata.name}`)).status).toBe(200);
    await vi.waitFor(
      async () => {
        const now = await podsOf(uid);
        expect(now.map((p) => p.spec.nodeName)).toEqual(['sim-node-0', 'sim-node-1']);
        expect(now.map((p) => p.metadata.name)).not.toContain(first.metadata.name);
      },
      { timeout: 10_000, interval: 200 },
    );
    const events = (await srv.api('GET', `/api/v1/namespaces/${NS}/events`)).body.items as {
      reason: string;
      source: { component: string };
      involvedObject: { kind: string; name: string };
    }[];
    const mine = events.filter((e) => e.involvedObject.kind === 'DaemonSet' && e.involvedObject.name === 'agent');
    expect(new Set(mine.map((e) => e.reason))).toEqual(new Set(['SuccessfulCreate', 'SuccessfulDelete']));
    expect(mine.every((e) => e.source.component === 'daemonset-controller')).toBe(true);
  });
});
