/**
 * Ports of upstream 1.33 pkg/controller/replicaset/replica_set_test.go sync cases (with
 * FakePodControl as FakeReplicaClient): TestSyncReplicaSetDoesNothing, deletes,
 * TestSyncReplicaSetCreateFailures, TestSyncReplicaSetDormancy, TestRSSyncExpectations,
 * TestDeleteControllerAndExpectations, TestDoNotPatchPodWithOtherControlRef, TestPatchPodFails,
 * TestDoNotAdoptOrCreateIfBeingDeleted(Race), TestControllerUpdateRequeue; plus status, ReplicaFailure,
 * minReadySeconds requeue and the ReplicationController selector.
 */
import { describe, expect, it } from 'vitest';
import type { Workload } from './workload.js';
import { ControllerExpectations } from './expectations.js';
import { FakeReplicaClient } from './fake-client.fixture.js';
import { newPod, newPodList, newReplicaSet } from './replicaset.fixture.js';
import { syncReplicas, type SyncDeps } from './sync.js';
import { REPLICA_SET_KIND, REPLICATION_CONTROLLER_KIND } from './workload.js';

const labels = { foo: 'bar' };

function setup(rs: Workload, opts: Partial<SyncDeps> = {}) {
  const client = new FakeReplicaClient();
  client.controllers.set(rs.metadata.name ?? '', rs);
  const deps: SyncDeps = { kind: REPLICA_SET_KIND, client, expectations: new ControllerExpectations(), ...opts };
  const sync = () => syncReplicas('default', rs.metadata.name ?? '', deps);
  return { client, deps, sync, key: `default/${rs.metadata.name}` };
}

describe('syncReplicas', () => {
  it('TestSyncReplicaSetDoesNothing: 2 running pods, 2 replicas', async () => {
    const rs = newReplicaSet(2, labels);
    const { client, sync } = setup(rs);
    client.pods = newPodList(2, 'Running', labels, rs);
    await sync();
    expect(client.counts()).toEqual({ creates: 0, deletes: 0, patches: 0 });
  });

  it('deletes the surplus: 2 running pods, 1 replica', async () => {
    const rs = newReplicaSet(1, labels);
    const { client, sync, deps, key } = setup(rs);
    client.pods = newPodList(2, 'Running', labels, rs);
    await sync();
    expect(client.counts()).toEqual({ creates: 0, deletes: 1, patches: 0 });
    expect(deps.expectations.pending(key)).toEqual({ add: 0, del: 1 });
  });

  it('creates pods from the template with a controllerRef and generateName', async () => {
    const rs = newReplicaSet(2, labels);
    rs.spec!.template!.metadata!.annotations = { a: 'b' };
    const { client, sync } = setup(rs);
    await sync();
    expect(client.created).toHaveLength(2);
    expect(client.created[0].metadata).toMatchObject({
      generateName: 'foobar-',
      namespace: 'default',
      labels: { name: 'foo', type: 'production' },
      annotations: { a: 'b' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'foobar',
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(client.created[0].spec?.nodeSelector).toEqual({ baz: 'blah' });
  });

  it('TestSyncReplicaSetCreateFailures: a create limit of 10 stops the slow start', async () => {
    const rs = newReplicaSet(100, labels);
    const { client, sync } = setup(rs);
    client.createLimit = 10;
    await expect(sync()).rejects.toThrow(/limit 10 already reached/);
    expect(client.counts().creates).toBe(10);
    // Batches 1, 2, 4, 8: the batch that crossed the limit is the last one tried.
    expect(client.createCalls).toBeLessThanOrEqual(15);
    expect(client.statuses.at(-1)?.conditions).toEqual([
      expect.objectContaining({ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' }),
    ]);
  });

  it('TestSyncReplicaSetDormancy: expectations hold creations until observed', async () => {
    const rs = newReplicaSet(2, labels);
    const { client, sync, deps, key } = setup(rs);
    client.pods = newPodList(1, 'Running', labels, rs);
    rs.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1 };
    await sync();
    expect(client.counts().creates).toBe(1);
    // Expectations prevent replicas but not a status update.
    rs.status = { replicas: 0, readyReplicas: 0, availableReplicas: 0 };
    client.clear();
    await sync();
    expect(client.counts().creates).toBe(0);
    // Observing the creation lets the next sync create; its failure is not expected to be observed.
    deps.expectations.creationObserved(key);
    rs.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1 };
    client.clear();
    client.err = new Error('fake Error');
    await expect(sync()).rejects.toThrow('fake Error');
    expect(client.counts().creates).toBe(1);
    client.clear();
    client.err = undefined;
    await sync();
    expect(client.counts().creates).toBe(1);
  });

  it('TestRSSyncExpectations: expectations are checked before the pods are listed', async () => {
    const rs = newReplicaSet(2, labels);
    const [first, late] = newPodList(2, 'Pending', labels, rs);
    const expectations = new (class extends ControllerExpectations {
      override satisfied(key: string) {
        client.pods.push(late); // a pod seen between the check and the list
        return super.satisfied(key);
      }
    })();
    const { client, sync } = setup(rs, { expectations });
    client.pods = [first];
    await sync();
    expect(client.counts()).toEqual({ creates: 0, deletes: 0, patches: 0 });
  });

  it('TestDeleteControllerAndExpectations: a deleted controller forgets its expectations', async () => {
    const rs = newReplicaSet(1, labels);
    const { client, sync, deps, key } = setup(rs);
    await sync();
    expect(client.counts().creates).toBe(1);
    expect(deps.expectations.satisfied(key)).toBe(false);
    client.controllers.delete('foobar');
    client.clear();
    await sync();
    expect(deps.expectations.pending(key)).toBeUndefined();
    expect(client.counts()).toEqual({ creates: 0, deletes: 0, patches: 0 });
  });

  it('TestDoNotPatchPodWithOtherControlRef: a pod of another controller is neither adopted nor counted', async () => {
    const rs = newReplicaSet(2, labels);
    const { client, sync } = setup(rs);
    const pod = newPod('pod', rs, 'Running');
    pod.metadata.ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'AnotherRS', uid: 'other', controller: true },
    ];
    client.pods = [pod];
    await sync();
    expect(client.counts()).toEqual({ creates: 2, deletes: 0, patches: 0 });
  });

  it('adopts matching orphans and releases owned pods that no longer match', async () => {
    const rs = newReplicaSet(2, labels);
    const { client, sync } = setup(rs);
    const stray = newPod('stray', rs, 'Running', undefined, true);
    stray.metadata.labels = { foo: 'other' };
    client.pods = [newPod('orphan1', rs, 'Running'), newPod('orphan2', rs, 'Running'), stray];
    await sync();
    expect(client.patches).toEqual([
      { pod: 'orphan1', op: 'adopt' },
      { pod: 'orphan2', op: 'adopt' },
      { pod: 'stray', op: 'release' },
    ]);
    expect(client.counts()).toMatchObject({ creates: 0, deletes: 0 });
    expect(client.statuses.at(-1)).toMatchObject({ replicas: 2 });
  });

  it('TestPatchPodFails: failed adoptions fail the sync (and it is retried)', async () => {
    const rs = newReplicaSet(2, labels);
    const { client, sync } = setup(rs);
    client.pods = [newPod('pod1', rs, 'Running'), newPod('pod2', rs, 'Running')];
    client.err = new Error('fake Error');
    await expect(sync()).rejects.toThrow('fake Error');
    expect(client.counts()).toEqual({ creates: 0, deletes: 0, patches: 2 });
  });

  it('TestDoNotAdoptOrCreateIfBeingDeleted', async () => {
    const rs = newReplicaSet(2, labels);
    rs.metadata.deletionTimestamp = new Date().toISOString();
    const { client, sync } = setup(rs);
    client.pods = [newPod('pod1', rs, 'Running')];
    await sync();
    expect(client.counts()).toEqual({ creates: 0, deletes: 0, patches: 0 });
  });

  it('TestDoNotAdoptOrCreateIfBeingDeletedRace: the fresh read says deleted', async () => {
    const rs = newReplicaSet(2, labels);
    const { client, sync } = setup(rs);
    client.fresh.set('foobar', { ...rs, metadata: { ...rs.metadata, deletionTimestamp: new Date().toISOString() } });
    client.pods = [newPod('pod1', rs, 'Running')];
    await expect(sync()).rejects.toThrow(/can't adopt Pod default\/pod1/);
    expect(client.counts()).toEqual({ creates: 0, deletes: 0, patches: 0 });
  });

  it('TestControllerUpdateRequeue: a failed status write fails the sync', async () => {
    const rs = newReplicaSet(1, labels);
    rs.status = { replicas: 2 };
    const { client, sync } = setup(rs);
    client.pods = newPodList(1, 'Running', labels, rs);
    client.statusErr = new Error('failed to update status');
    await expect(sync()).rejects.toThrow('failed to update status');
  });

  it('writes the counts, observedGeneration, and clears ReplicaFailure once writes succeed', async () => {
    const rs = newReplicaSet(3, labels);
    rs.metadata.generation = 4;
    rs.status = { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' }] };
    const { client, sync } = setup(rs);
    const pods = newPodList(3, 'Running', labels, rs);
    pods[0].metadata.labels = { ...labels, name: 'foo', type: 'production' };
    pods[2].status = { phase: 'Pending' };
    client.pods = pods;
    await sync();
    expect(client.statuses.at(-1)).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 1,
      readyReplicas: 2,
      availableReplicas: 2,
      observedGeneration: 4,
    });
  });

  it('asks to sync again after minReadySeconds while ready pods are not yet available', async () => {
    const rs = newReplicaSet(1, labels);
    rs.spec!.minReadySeconds = 10;
    const { client, sync } = setup(rs, { now: () => Date.parse('2026-01-01T00:00:05Z') });
    client.pods = [newPod('p', rs, 'Running', '2026-01-01T00:00:00Z', true)];
    expect(await sync()).toEqual({ requeueAfterMs: 10_000 });
    expect(client.statuses.at(-1)).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
  });

  it('serves ReplicationControllers, whose selector is a label map', async () => {
    const rc: Workload = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc', namespace: 'default', uid: 'rc-uid', generation: 1 },
      spec: {
        replicas: 2,
        selector: labels,
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const { client, sync } = setup(rc, { kind: REPLICATION_CONTROLLER_KIND });
    const orphan = newPod('orphan', newReplicaSet(1, labels), 'Running');
    client.pods = [orphan];
    await sync();
    expect(client.patches).toEqual([{ pod: 'orphan', op: 'adopt' }]);
    expect(client.created).toHaveLength(1);
    expect(client.created[0].metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'rc',
        uid: 'rc-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });
});
