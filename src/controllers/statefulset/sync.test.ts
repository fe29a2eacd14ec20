// Ports upstream pkg/controller/statefulset/stateful_set_test.go TestGetPodsForStatefulSetAdopt,
// TestGetPodsForStatefulSetRelease, TestAdoptOrphanRevisions, the minReadySeconds requeue of
// syncStatefulSet, and the Events of stateful_pod_control_test.go (TestStatefulPodControlCreatesPods).
import { describe, expect, it } from 'vitest';
import { labelSelectorOf } from '../../api/label-selector.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { FakeStatefulSetClient } from './fake-client.fixture.js';
import { newStatefulSet, NOW, setPodPhase, setPodReady } from './harness.fixture.js';
import { newStatefulSetPod } from './identity.js';
import { newRevision } from './revisions.js';
import { adoptOrphanRevisions, podsForStatefulSet, syncStatefulSet } from './sync.js';

const orphan = (pod: Pod): Pod => {
  const { ownerReferences: _r, ...meta } = pod.metadata;
  return { ...pod, metadata: { ...meta, uid: `uid-${pod.metadata.name}` } };
};
const put = (client: FakeStatefulSetClient, ...pods: Pod[]) => {
  for (const p of pods)
    client.pods.set(p.metadata.name!, { ...p, metadata: { uid: `uid-${p.metadata.name}`, ...p.metadata } });
};
const selector = labelSelectorOf({ matchLabels: { foo: 'bar' } });

describe('claiming pods and revisions (stateful_set_test.go)', () => {
  it('TestGetPodsForStatefulSetAdopt: adopts orphans with matching labels and member names only', async () => {
    const set = newStatefulSet(5);
    const client = new FakeStatefulSetClient();
    client.sets.set('foo', set);
    const wrongLabels = orphan(newStatefulSetPod(set, 3));
    wrongLabels.metadata.labels = {};
    const wrongName = orphan(newStatefulSetPod(set, 4));
    wrongName.metadata.name = 'xfoo-4';
    put(client, newStatefulSetPod(set, 1), orphan(newStatefulSetPod(set, 2)), wrongLabels, wrongName);
    const pods = await podsForStatefulSet(set, selector, client);
    expect(pods.map((p) => p.metadata.name).sort()).toEqual(['foo-1', 'foo-2']);
    expect(client.pods.get('foo-2')?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', uid: 'test' });
    expect(client.pods.get('foo-3')?.metadata.ownerReferences ?? []).toEqual([]);
  });

  it('TestGetPodsForStatefulSetRelease: releases owned pods with wrong names or labels', async () => {
    const set = newStatefulSet(3);
    const client = new FakeStatefulSetClient();
    client.sets.set('foo', set);
    const wrongName = newStatefulSetPod(set, 2);
    wrongName.metadata.name = 'xfoo-2';
    const wrongLabels = newStatefulSetPod(set, 3);
    wrongLabels.metadata.labels = {};
    const strangerOrphan = orphan(newStatefulSetPod(set, 4));
    strangerOrphan.metadata.labels = {};
    put(client, newStatefulSetPod(set, 1), wrongName, wrongLabels, strangerOrphan);
    const pods = await podsForStatefulSet(set, selector, client);
    expect(pods.map((p) => p.metadata.name)).toEqual(['foo-1']);
    expect(client.pods.get('xfoo-2')?.metadata.ownerReferences).toEqual([]);
    expect(client.pods.get('foo-3')?.metadata.ownerReferences).toEqual([]);
  });

  it('TestAdoptOrphanRevisions: orphan revisions the selector matches are adopted', async () => {
    const set = newStatefulSet(3);
    const client = new FakeStatefulSetClient();
    client.sets.set('foo', set);
    const r1 = newRevision(set, 1, 0);
    delete r1.metadata.ownerReferences;
    await client.createRevision(r1);
    await adoptOrphanRevisions(set, client);
    expect(client.revisions.get(r1.metadata.name!)?.metadata.ownerReferences?.[0]).toMatchObject({
      uid: 'test',
      controller: true,
    });
  });

  it('does not adopt when the set read fresh is being deleted', async () => {
    const set = newStatefulSet(3);
    const client = new FakeStatefulSetClient();
    client.sets.set('foo', { ...set, metadata: { ...set.metadata, deletionTimestamp: new Date(NOW).toISOString() } });
    const r1 = newRevision(set, 1, 0);
    delete r1.metadata.ownerReferences;
    await client.createRevision(r1);
    await expect(adoptOrphanRevisions(set, client)).rejects.toThrow(/can't adopt ControllerRevisions/);
  });
});

describe('syncStatefulSet', () => {
  it('records the Events upstream records for a pod and its claim', async () => {
    const client = new FakeStatefulSetClient();
    client.sets.set('foo', newStatefulSet(1));
    await syncStatefulSet('default', 'foo', { client, now: NOW });
    expect(client.events).toEqual([
      {
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: 'create Claim datadir-foo-0 Pod foo-0 in StatefulSet foo success',
      },
      { type: 'Normal', reason: 'SuccessfulCreate', message: 'create Pod foo-0 in StatefulSet foo successful' },
    ]);
  });

  it('a failed create records FailedCreate with the error', async () => {
    const client = new FakeStatefulSetClient();
    client.sets.set('foo', newStatefulSet(1));
    client.createPodTracker.set(new Error('quota exceeded'), 0);
    await expect(syncStatefulSet('default', 'foo', { client, now: NOW })).rejects.toThrow('quota exceeded');
    expect(client.events.at(-1)).toEqual({
      type: 'Warning',
      reason: 'FailedCreate',
      message: 'create Pod foo-0 in StatefulSet foo failed error: quota exceeded',
    });
  });

  it('asks to sync again after minReadySeconds while ready pods are not yet available', async () => {
    const client = new FakeStatefulSetClient();
    const set = newStatefulSet(1);
    set.spec!.minReadySeconds = 120; // the fixture's pods became ready 60 s before NOW
    client.sets.set('foo', set);
    await syncStatefulSet('default', 'foo', { client, now: NOW });
    setPodPhase(client, client.pods.get('foo-0')!, 'Running');
    setPodReady(client, client.pods.get('foo-0')!);
    expect(await syncStatefulSet('default', 'foo', { client, now: NOW })).toEqual({ requeueAfterMs: 120_000 });
    expect(client.sets.get('foo')?.status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    expect(await syncStatefulSet('default', 'foo', { client, now: NOW + 61_000 })).toEqual({});
    expect(client.sets.get('foo')?.status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });

  it('a set that is gone is nothing to do', async () => {
    expect(await syncStatefulSet('default', 'gone', { client: new FakeStatefulSetClient() })).toEqual({});
  });
});
