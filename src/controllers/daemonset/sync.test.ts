/**
 * Upstream 1.33 pkg/controller/daemon/daemon_controller_test.go, ported against the in-memory
 * fake (fake-client.fixture.ts), each under both update strategies as upstream's
 * updateStrategies() loop: TestSimpleDaemonSetLaunchesPods,
 * TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods, TestNoNodesDoesNothing,
 * TestOneNodeDaemonLaunchesPod, TestNotReadyNodeDaemonDoesLaunchPod,
 * TestInsufficientCapacityNodeDaemonDoesNotUnscheduleRunningPod, TestDealsWithExistingPods,
 * TestSelectorDaemonLaunchesPods, TestNodeAffinityDaemonLaunchesPods,
 * TestTaintedNodeDaemonDoesNotLaunchIntolerantPod, TestTaintedNodeDaemonLaunchesToleratePod,
 * TestTaintPressureNodeDaemonLaunchesPod, TestDaemonSetRespectsTermination,
 * TestDaemonKillFailedPods (4 rows), TestDaemonKillFailedPodsBackoff, TestNumberReadyStatus,
 * TestObservedGeneration (history and selector cases: history.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import {
  expectSync,
  fixture,
  newDaemonSet,
  noScheduleTaints,
  simpleDaemonSetLabel2,
  simpleNodeLabel,
} from './fake-client.fixture.js';

const strategies = [
  ['OnDelete', { type: 'OnDelete' }],
  ['RollingUpdate', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }],
] as const;

const withSpec = (ds: DaemonSet, spec: Record<string, unknown>): DaemonSet => {
  ds.spec!.template!.spec = { ...ds.spec!.template!.spec!, ...spec } as never;
  return ds;
};

describe.each(strategies)('DaemonSet sync (%s)', (_name, strategy) => {
  const ds = () => newDaemonSet('foo', strategy);

  it('TestSimpleDaemonSetLaunchesPods: one pod per node', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 5);
    await expectSync(d, f, 5, 0);
  });

  it('TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods: each pod pinned to its node by metadata.name', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 5);
    await expectSync(d, f, 5, 0);
    const pinned = f.client.created.map((p) => {
      expect(p.spec?.nodeName).toBeUndefined();
      const terms = p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
      expect(terms).toHaveLength(1);
      expect(terms?.[0].matchFields?.[0]).toMatchObject({ key: 'metadata.name', operator: 'In' });
      return terms?.[0].matchFields?.[0].values?.[0];
    });
    expect(pinned.sort()).toEqual(['node-0', 'node-1', 'node-2', 'node-3', 'node-4']);
    const hash = f.client.revisions[0].metadata.labels?.['controller-revision-hash'];
    for (const p of f.client.created) {
      expect(p.metadata.generateName).toBe('foo-');
      expect(p.metadata.labels).toMatchObject({ 'controller-revision-hash': hash });
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: 'foo',
          uid: d.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
  });

  it('TestNoNodesDoesNothing', async () => {
    const d = ds();
    await expectSync(d, fixture(d), 0, 0);
  });

  it('TestOneNodeDaemonLaunchesPod', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 1);
    await expectSync(d, f, 1, 0);
  });

  it('TestNotReadyNodeDaemonDoesLaunchPod', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 1);
    f.client.nodes[0].status = { conditions: [{ type: 'Ready', status: 'False' }] };
    await expectSync(d, f, 1, 0);
  });

  it('TestInsufficientCapacityNodeDaemonDoesNotUnscheduleRunningPod: resources are the scheduler’s business', async () => {
    const request = { resources: { requests: { memory: '75M', cpu: '75m' } } };
    const d = withSpec(ds(), { containers: [{ name: 'c', image: 'foo/bar', ...request }] });
    const f = fixture(d);
    f.client.addNodes(0, 1);
    f.client.nodes[0].status = { ...f.client.nodes[0].status, allocatable: { memory: '75M', cpu: '75m' } };
    f.client.addPods('node-0', 1, d, { other: 'pod' }); // a pod of someone else using the room
    await expectSync(d, f, 1, 0);
  });

  it('TestDealsWithExistingPods: creates where missing, keeps the oldest where doubled', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 5);
    f.client.addPods('node-1', 1, d);
    f.client.addPods('node-2', 2, d);
    f.client.addPods('node-3', 5, d);
    f.client.addPods('node-4', 2, d, simpleDaemonSetLabel2);
    await expectSync(d, f, 2, 5);
  });

  it('TestSelectorDaemonLaunchesPods: only nodes matching the nodeSelector', async () => {
    const d = withSpec(ds(), { nodeSelector: simpleNodeLabel });
    const f = fixture(d);
    f.client.addNodes(0, 4);
    f.client.addNodes(4, 3, simpleNodeLabel);
    await expectSync(d, f, 3, 0);
  });

  it('TestSelectorDaemonDeletesUnselectedPods: pods on unselected nodes go', async () => {
    const d = withSpec(ds(), { nodeSelector: simpleNodeLabel });
    const f = fixture(d);
    f.client.addNodes(0, 5);
    f.client.addNodes(5, 5, simpleNodeLabel);
    f.client.addPods('node-0', 2, d, simpleDaemonSetLabel2);
    f.client.addPods('node-1', 3, d);
    f.client.addPods('node-1', 1, d, simpleDaemonSetLabel2);
    f.client.addPods('node-4', 1, d);
    await expectSync(d, f, 5, 4);
  });

  it('TestNodeAffinityDaemonLaunchesPods: required node affinity selects the nodes', async () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'color', operator: 'In', values: ['blue'] }] }],
        },
      },
    };
    const d = withSpec(ds(), { affinity });
    const f = fixture(d);
    f.client.addNodes(0, 4);
    f.client.addNodes(4, 3, simpleNodeLabel);
    await expectSync(d, f, 3, 0);
  });

  it('TestTaintedNodeDaemonDoesNotLaunchIntolerantPod', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 1, undefined, { taints: noScheduleTaints });
    await expectSync(d, f, 0, 0);
  });

  it('TestTaintedNodeDaemonLaunchesToleratePod', async () => {
    const d = withSpec(ds(), {
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user1', effect: 'NoSchedule' }],
    });
    const f = fixture(d);
    f.client.addNodes(0, 1, undefined, { taints: noScheduleTaints });
    await expectSync(d, f, 1, 0);
  });

  it('TestTaintPressureNodeDaemonLaunchesPod: the default tolerations cover pressure and not-ready taints', async () => {
    const d = ds();
    const f = fixture(d);
    const taints = ['disk-pressure', 'memory-pressure', 'pid-pressure', 'unschedulable'].map((k) => ({
      key: `node.kubernetes.io/${k}`,
      effect: 'NoSchedule',
    }));
    taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' });
    f.client.addNodes(0, 1, undefined, { taints, unschedulable: true });
    await expectSync(d, f, 1, 0);
  });

  it('TestDaemonSetRespectsTermination: a terminating pod is neither replaced nor deleted again', async () => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 1);
    f.client.addPods('node-0', 1, d, undefined, { metadata: { deletionTimestamp: new Date().toISOString() } } as never);
    await expectSync(d, f, 0, 0);
  });

  it.each([
    ['normal (do nothing)', 0, 1, 0, 0, 0],
    ['no pods (create 1)', 0, 0, 1, 0, 0],
    ['1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)', 1, 0, 0, 1, 1],
    ['1 failed pod (kill 1), 3 normal pods (kill 2)', 1, 3, 0, 3, 1],
  ])('TestDaemonKillFailedPods: %s', async (_t, failed, normal, creates, deletes, events) => {
    const d = ds();
    const f = fixture(d);
    f.client.addNodes(0, 1);
    f.client.addPods('node-0', failed, d, undefined, { status: { phase: 'Failed' } });
    f.client.addPods('node-0', normal, d);
    await expectSync(d, f, creates, deletes, events);
  });

  it('TestDaemonKillFailedPodsBackoff: a second failure on the node waits out the back-off', async () => {
    const d = ds();
    d.status = { observedGeneration: 1 }; // the back-off is per observed generation
    let now = Date.parse('2026-01-01T00:00:00Z');
    const f = fixture(d, () => now);
    f.client.addNodes(0, 1);
    f.client.addPods('node-0', 1, d, undefined, { status: { phase: 'Failed' } });
    await expectSync(d, f, 0, 1, 1);
    expect(f.client.events[0]).toEqual({
      reason: 'FailedDaemonPod',
      message: `Found failed daemon pod default/${f.client.deleted[0]} on node node-0, will try to kill it`,
    });
    f.client.addPods('node-0', 1, d, undefined, { status: { phase: 'Failed' } });
    await expectSync(d, f, 0, 0, 0);
    expect(f.requeued.at(-1)).toEqual({ key: 'default/foo', ms: 1000 });
    now += 1001;
    await expectSync(d, f, 0, 1, 1);
  });

  it('TestNumberReadyStatus and TestObservedGeneration', async () => {
    const d = ds();
    d.metadata.generation = 3;
    const f = fixture(d);
    f.client.addNodes(0, 2);
    f.client.addPods('node-0', 1, d);
    f.client.addPods('node-1', 1, d);
    await expectSync(d, f, 0, 0);
    expect(f.client.statuses.at(-1)).toMatchObject({
      numberReady: 0,
      desiredNumberScheduled: 2,
      observedGeneration: 3,
    });
    f.client.markPodsReady();
    await expectSync(d, f, 0, 0);
    expect(d.status).toMatchObject({
      numberReady: 2,
      numberAvailable: 2,
      numberUnavailable: 0,
      currentNumberScheduled: 2,
      observedGeneration: 3,
    });
  });
});
