/**
 * Upstream 1.33 pkg/controller/disruption/disruption_test.go, the cases that sync a budget and
 * check its status (VerifyPdbStatus: the counts, observedGeneration, the DisruptionAllowed
 * condition agreeing with disruptionsAllowed), ported over the fake client.
 */
import { describe, expect, it } from 'vitest';
import {
  expectedStatus,
  FakeDisruptionClient,
  newDeployment,
  newPdb,
  newPod,
  newReplicaSet,
  newReplicationController,
  newStatefulSet,
  setOwner,
  setUnready,
  writtenStatus,
} from './fake-client.fixture.js';
import { syncDisruptionBudget } from './sync.js';

const NAME = 'foobar';
const sync = (c: FakeDisruptionClient, now = Date.now()) => syncDisruptionBudget(c, 'default', NAME, now);

/** Upstream VerifyPdbStatus on the last status written. */
const verify = (c: FakeDisruptionClient, ...want: Parameters<typeof expectedStatus>) =>
  expect(writtenStatus(c)).toEqual(expectedStatus(...want));
const allowed = (c: FakeDisruptionClient) => c.written.get(NAME)?.status?.disruptionsAllowed;

describe('disruption controller sync (upstream disruption_test.go)', () => {
  it('TestNoSelector: an empty selector matches every pod', async () => {
    const c = new FakeDisruptionClient();
    const pdb = newPdb({ minAvailable: 3 });
    pdb.spec = { ...pdb.spec, selector: {} };
    c.pdbs.push(pdb);
    await sync(c);
    verify(c, 0, 0, 3, 0);
    c.pods.push({ ...newPod('yo-yo-yo'), metadata: { ...newPod('yo-yo-yo').metadata, labels: { any: 'x' } } });
    await sync(c);
    verify(c, 0, 1, 3, 1);
  });

  it('TestUnavailable: counts go up with pods and down when one is not Ready', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: 3 }));
    await sync(c);
    for (let i = 0; i < 4; i++) {
      verify(c, 0, i, 3, i);
      c.pods.push(newPod(`yo-yo-yo ${i}`));
      await sync(c);
    }
    verify(c, 1, 4, 3, 4);
    setUnready(c.pods[0]);
    await sync(c);
    verify(c, 0, 3, 3, 4);
  });

  it('TestIntegerMaxUnavailable: no disruption for a pod without a controller', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ maxUnavailable: 1 }));
    await sync(c);
    expect(allowed(c)).toBe(0);
    c.pods.push(newPod('naked'));
    await sync(c);
    expect(allowed(c)).toBe(0);
    expect(c.reasons()).toContain('UnmanagedPods');
  });

  it.each([
    ['TestIntegerMaxUnavailableWithScaling', 2, [0, 1, 5, 7], 5, [0, 1, 3, 5]],
    ['TestPercentageMaxUnavailableWithScaling', '30%', [0, 1, 4, 7], 3, [0, 1, 2, 3]],
  ] as const)('%s: the scale of the controller is followed', async (_n, max, first, scaled, second) => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ maxUnavailable: max }));
    const rs = newReplicaSet(7);
    c.replicaSets.push(rs);
    const pod = newPod('pod');
    setOwner(pod, rs, 'extensions/v1beta1', 'ReplicaSet');
    c.pods.push(pod);
    await sync(c);
    verify(c, first[0], first[1], first[2], first[3]);
    rs.spec = { ...rs.spec, replicas: scaled };
    await sync(c);
    verify(c, second[0], second[1], second[2], second[3]);
  });

  it.each(['TestNakedPod', 'TestStatusForUnmanagedPod', 'TestTotalUnmanagedPods'])(
    '%s: a percent budget over an unmanaged pod allows nothing and is no sync error',
    async () => {
      const c = new FakeDisruptionClient();
      c.pdbs.push(newPdb({ minAvailable: '28%' }));
      await sync(c);
      expect(allowed(c)).toBe(0);
      c.pods.push(newPod('unmanaged'));
      await sync(c);
      expect(allowed(c)).toBe(0);
      expect(c.reasons()).toContain('UnmanagedPods');
      const reasons = (c.written.get(NAME)?.status?.conditions ?? []).map((x) => x.reason);
      expect(reasons).not.toContain('SyncFailed');
    },
  );

  it('TestUnsupportedControllerPod: an unknown controller kind fails the count safely', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: '28%' }));
    const pod = newPod('naked');
    pod.metadata.ownerReferences = [
      {
        apiVersion: 'apps.test.io/v1',
        kind: 'TestWorkload',
        name: 'fake-controller',
        uid: 'b7329742',
        controller: true,
      },
    ];
    c.pods.push(pod);
    await sync(c);
    expect(allowed(c)).toBe(0);
    expect(c.reasons()).toContain('CalculateExpectedPodCountFailed');
    const cond = c.written.get(NAME)?.status?.conditions?.find((x) => x.type === 'DisruptionAllowed');
    expect(cond).toMatchObject({ status: 'False', reason: 'SyncFailed' });
    expect(cond?.message).toContain('no matches for kind "TestWorkload"');
  });

  it('TestReplicaSet: the scale of a ReplicaSet without a Deployment counts', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: '20%' }));
    const rs = newReplicaSet(10);
    c.replicaSets.push(rs);
    const pod = newPod('pod');
    setOwner(pod, rs, 'extensions/v1beta1', 'ReplicaSet');
    c.pods.push(pod);
    await sync(c);
    verify(c, 0, 1, 2, 10);
  });

  it('TestScaleResource: a custom resource is counted through its scale subresource', async () => {
    const c = new FakeDisruptionClient();
    c.scaleKinds.set('custom.k8s.io/v1/customresource', true);
    c.scales.set('custom.k8s.io/v1/customresource/', { uid: 'cr-uid', scale: 10 });
    c.pdbs.push(newPdb({ maxUnavailable: 5 }));
    for (let i = 0; i < 4; i++) {
      const pod = newPod(`pod-${i}`);
      pod.metadata.ownerReferences = [
        { apiVersion: 'custom.k8s.io/v1', kind: 'customresource', name: '', uid: 'cr-uid', controller: true },
      ];
      c.pods.push(pod);
    }
    await sync(c);
    verify(c, 0, 4, 5, 10);
  });

  it('TestMultipleControllers: one controller with enough healthy pods allows a disruption', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: '1%' }));
    const pods = [newPod('pod 0'), newPod('pod 1')];
    c.pods.push(...pods);
    await sync(c);
    expect(allowed(c)).toBe(0);
    const rc = { ...newReplicationController(1), metadata: { ...newReplicationController(1).metadata, name: 'rc 1' } };
    for (const p of pods) setOwner(p, rc, 'v1', 'ReplicationController');
    c.replicationControllers.push(rc);
    await sync(c);
    expect(allowed(c)).toBe(1);
  });

  it.each([
    ['TestReplicationController', 'v1', 'ReplicationController'],
    ['TestStatefulSetController', 'apps/v1beta1', 'StatefulSet'],
  ] as const)('%s: 34%% of 3 rounds up to 2', async (name, apiVersion, kind) => {
    const labels = { foo: 'bar', baz: 'quux' };
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: '34%' }));
    const owner = kind === 'StatefulSet' ? newStatefulSet(3) : newReplicationController(3);
    if (kind === 'StatefulSet') c.statefulSets.push(owner as never);
    else c.replicationControllers.push(owner as never);
    await sync(c);
    verify(c, 0, 0, 0, 0);
    for (let i = 0; i < 3; i++) {
      const pod = newPod(`foobar ${i}`);
      setOwner(pod, owner, apiVersion, kind);
      pod.metadata.labels = labels;
      c.pods.push(pod);
      await sync(c);
      if (i < 2) verify(c, 0, i + 1, 2, 3);
      else verify(c, 1, 3, 2, 3);
    }
    if (name !== 'TestReplicationController') return;
    c.pods.push(newPod('rogue'));
    await sync(c);
    expect(allowed(c)).toBe(2);
  });

  it('TestTwoControllers: a Deployment-less ReplicaSet and an RC add up', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: '28%' }));
    const rc = newReplicationController(11);
    c.replicationControllers.push(rc);
    await sync(c);
    verify(c, 0, 0, 0, 0);
    const rcPods = [];
    for (let i = 1; i <= 11; i++) {
      const pod = newPod(`quux ${i}`);
      setOwner(pod, rc, 'v1', 'ReplicationController');
      if (i <= 6) setUnready(pod);
      rcPods.push(pod);
      c.pods.push(pod);
      await sync(c);
      // 28% of 11 rounds up to 4.
      verify(c, i <= 6 ? 0 : Math.max(0, i - 6 - 4), Math.max(0, i - 6), 4, 11);
    }
    c.deployments.push(newDeployment(11));
    const rs = newReplicaSet(11);
    c.replicaSets.push(rs);
    await sync(c);
    verify(c, 1, 5, 4, 11);
    for (let i = 1; i <= 11; i++) {
      const pod = newPod(`quuux ${i}`);
      setOwner(pod, rs, 'extensions/v1beta1', 'ReplicaSet');
      if (i <= 7) setUnready(pod);
      c.pods.push(pod);
    }
    await sync(c);
    // 28% of 22 rounds up to 7; 5 + 4 Ready.
    verify(c, 2, 9, 7, 22);
    setUnready(rcPods[10]);
    await sync(c);
    verify(c, 1, 8, 7, 22);
    setUnready(rcPods[9]);
    await sync(c);
    verify(c, 0, 7, 7, 22);
    rcPods[10].status = { conditions: [{ type: 'Ready', status: 'True' }] };
    await sync(c);
    verify(c, 1, 8, 7, 22);
  });
});
