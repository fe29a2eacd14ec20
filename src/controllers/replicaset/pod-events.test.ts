/**
 * Ports of upstream 1.33 replica_set_test.go event cases: TestPodControllerLookup,
 * TestUpdatePods, TestDeletionTimestamp, TestOverlappingRSs, TestDeleteFinalStateUnknown (as a
 * delete of an owned pod) and TestControllerBurstReplicas (sync and events together).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ReplicaSet } from '../../resources/replicasets/replicasets.schema.js';
import { ControllerExpectations } from './expectations.js';
import { FakeReplicaClient } from './fake-client.fixture.js';
import { controllersSelecting, podAdded, podDeleted, podUpdated, type PodEventTarget } from './pod-events.js';
import { newPod, newPodList, newReplicaSet } from './replicaset.fixture.js';
import { syncReplicas } from './sync.js';
import { keyOf, REPLICA_SET_KIND, type Workload } from './workload.js';

function target(controllers: readonly Workload[], expectations = new ControllerExpectations()) {
  const queued: { key: string; afterMs?: number }[] = [];
  const t: PodEventTarget = {
    kind: REPLICA_SET_KIND,
    expectations,
    getController: async (ns, name) => controllers.find((c) => c.metadata.namespace === ns && c.metadata.name === name),
    listControllers: async (ns) => controllers.filter((c) => c.metadata.namespace === ns),
    enqueue: (key, afterMs) => queued.push(afterMs ? { key, afterMs } : { key }),
  };
  // The work queue folds repeated keys into one: compare the distinct names woken.
  return { t, queued, names: () => [...new Set(queued.map((q) => q.key.split('/')[1]))].sort() };
}

const ref = (rs: Workload) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: rs.metadata.name ?? '',
  uid: rs.metadata.uid ?? '',
  controller: true,
});

describe('TestPodControllerLookup', () => {
  const rs = (name: string, namespace?: string, selector?: Record<string, string>): ReplicaSet => ({
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: selector ? { selector: { matchLabels: selector } } : {},
  });
  const pod = (name: string, namespace: string, labels?: Record<string, string>): Pod => ({
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
  });
  it.each([
    { name: "pods without labels don't match any ReplicaSets", rss: [rs('basic')], pod: pod('foo1', ''), want: [] },
    {
      name: 'matching labels, not namespace',
      rss: [rs('foo', undefined, { foo: 'bar' })],
      pod: pod('foo2', 'ns', { foo: 'bar' }),
      want: [],
    },
    {
      name: 'matching ns and labels',
      rss: [rs('bar', 'ns', { foo: 'bar' })],
      pod: pod('foo3', 'ns', { foo: 'bar' }),
      want: ['bar'],
    },
  ])('$name', async ({ rss, pod: p, want }) => {
    const got = await controllersSelecting(p, target(rss).t);
    expect(got.map((c) => c.metadata.name)).toEqual(want);
  });
});

describe('TestUpdatePods', () => {
  const labelMap1 = { foo: 'bar' };
  const labelMap2 = { bar: 'foo' };
  const rs1 = newReplicaSet(1, labelMap1);
  const rs2: ReplicaSet = {
    ...rs1,
    metadata: { ...rs1.metadata, name: 'barfoo', uid: 'uid-2' },
    spec: { ...rs1.spec, selector: { matchLabels: labelMap2 } },
  };
  const version = (p: Pod, rv: string, change: (m: Pod['metadata']) => void): Pod => {
    const out = structuredClone(p);
    out.metadata.resourceVersion = rv;
    change(out.metadata);
    return out;
  };
  const base = newPodList(1, 'Running', labelMap1, rs1)[0];
  it.each([
    {
      name: 'a pod with a ControllerRef wakes its controller',
      old: version(base, '1', (m) => (m.ownerReferences = [ref(rs1)])),
      cur: version(base, '2', (m) => ((m.ownerReferences = [ref(rs1)]), (m.labels = labelMap2))),
      want: ['foobar'],
    },
    {
      name: 'ControllerRef removed (orphan): the label-matching controller wakes',
      old: version(base, '1', (m) => ((m.labels = labelMap2), (m.ownerReferences = [ref(rs2)]))),
      cur: version(base, '2', (m) => ((m.labels = labelMap2), (m.ownerReferences = undefined))),
      want: ['barfoo'],
    },
    {
      name: 'ControllerRef removed: the former owner and the label-matching controller wake',
      old: version(base, '1', (m) => ((m.labels = labelMap2), (m.ownerReferences = [ref(rs1)]))),
      cur: version(base, '2', (m) => ((m.labels = labelMap2), (m.ownerReferences = undefined))),
      want: ['barfoo', 'foobar'],
    },
    {
      name: 'ControllerRef kept, labels changed: the owner wakes',
      old: version(base, '1', (m) => ((m.labels = labelMap1), (m.ownerReferences = [ref(rs2)]))),
      cur: version(base, '2', (m) => ((m.labels = labelMap2), (m.ownerReferences = [ref(rs2)]))),
      want: ['barfoo'],
    },
    {
      name: 'same resourceVersion: nothing (a resync)',
      old: version(base, '1', (m) => (m.ownerReferences = [ref(rs1)])),
      cur: version(base, '1', (m) => (m.ownerReferences = [ref(rs1)])),
      want: [],
    },
  ])('$name', async ({ old, cur, want }) => {
    const { t, names } = target([rs1, rs2]);
    await podUpdated(old, cur, t);
    expect(names()).toEqual(want);
  });

  it('a pod turning ready wakes the owner again after minReadySeconds + 1 s', async () => {
    const rs = { ...rs1, spec: { ...rs1.spec, minReadySeconds: 5 } };
    const { t, queued } = target([rs]);
    const old = version(newPod('p', rs, 'Pending', undefined, true), '1', () => {});
    const cur = version(newPod('p', rs, 'Running', undefined, true), '2', () => {});
    await podUpdated(old, cur, t);
    expect(queued).toEqual([{ key: 'default/foobar' }, { key: 'default/foobar', afterMs: 6000 }]);
  });
});

describe('TestDeletionTimestamp', () => {
  it('counts a deletion once, as a deletionTimestamp update or a delete', async () => {
    const rs = newReplicaSet(1, { foo: 'bar' });
    const exp = new ControllerExpectations();
    const { t, queued } = target([rs], exp);
    const key = keyOf(rs);
    const pod = newPodList(1, 'Pending', { foo: 'bar' }, rs)[0];
    pod.metadata.deletionTimestamp = new Date().toISOString();
    pod.metadata.resourceVersion = '1';
    exp.expectDeletions(key, [keyOf(pod)]);
    // A pod added with a deletion timestamp decrements deletions, not creations.
    await podAdded(pod, t);
    expect(queued.map((q) => q.key)).toEqual([key]);
    expect(exp.satisfied(key)).toBe(true);
    // An update from no deletion timestamp to one is a deletion.
    const oldPod = newPodList(1, 'Pending', { foo: 'bar' }, rs)[0];
    oldPod.metadata.resourceVersion = '2';
    exp.expectDeletions(key, [keyOf(pod)]);
    await podUpdated(oldPod, pod, t);
    expect(exp.satisfied(key)).toBe(true);
    // Another update of the same pod is not a second deletion.
    const second: Pod = {
      metadata: { namespace: 'default', name: 'secondPod', labels: pod.metadata.labels, ownerReferences: [ref(rs)] },
    };
    exp.expectDeletions(key, [keyOf(second)]);
    oldPod.metadata.deletionTimestamp = new Date().toISOString();
    await podUpdated(oldPod, pod, t);
    expect(exp.satisfied(key)).toBe(false);
    await podDeleted(pod, t);
    expect(exp.satisfied(key)).toBe(false);
    // Deleting the second pod clears them.
    await podDeleted(second, t);
    expect(exp.satisfied(key)).toBe(true);
  });
});

describe('TestOverlappingRSs', () => {
  it('a pod with a ControllerRef wakes only that controller among 9 overlapping ones', async () => {
    const rss = Array.from({ length: 9 }, (_, j) => {
      const rs = newReplicaSet(1, { foo: 'bar' });
      rs.metadata.name = `rs${j + 1}`;
      return rs;
    });
    const { t, queued } = target(rss.toReversed());
    const pod = newPodList(1, 'Pending', { foo: 'bar' }, rss[3])[0];
    await podAdded(pod, t);
    expect(queued).toEqual([{ key: 'default/rs4' }]);
  });

  it('an orphan wakes every controller selecting it; a deleted orphan wakes none', async () => {
    const [a, b] = [newReplicaSet(1, { foo: 'bar' }), newReplicaSet(1, { foo: 'bar' })];
    b.metadata.name = 'other';
    const { t, names } = target([a, b]);
    const orphan = newPod('o', a, 'Running');
    await podAdded(orphan, t);
    await podDeleted(orphan, t);
    expect(names()).toEqual(['foobar', 'other']);
  });
});

describe('TestControllerBurstReplicas', () => {
  it.each([
    { burst: 5, replicas: 30 },
    { burst: 5, replicas: 12 },
    { burst: 3, replicas: 2 },
  ])('burst $burst, $replicas replicas: up, then down to 0', async ({ burst, replicas }) => {
    const rs = newReplicaSet(replicas, { foo: 'bar' });
    rs.spec!.template!.metadata!.labels = { foo: 'bar' };
    const client = new FakeReplicaClient();
    client.controllers.set('foobar', rs);
    const expectations = new ControllerExpectations();
    const { t } = target([rs], expectations);
    const deps = { kind: REPLICA_SET_KIND, client, expectations, burstReplicas: burst };
    const sync = () => syncReplicas('default', 'foobar', deps);
    const observeCreated = async (pods: readonly Pod[]) => {
      for (const p of pods) {
        const created = {
          ...p,
          metadata: { ...p.metadata, name: `p${client.pods.length}`, uid: `u${client.pods.length}` },
        };
        client.pods.push(created);
        await podAdded(created, t);
      }
    };
    const observeDeleted = async (names: readonly string[]) => {
      for (const name of names) {
        const pod = client.pods.find((p) => p.metadata.name === name)!;
        client.pods = client.pods.filter((p) => p !== pod);
        await podDeleted(pod, t);
      }
    };
    for (const want of [replicas, 0]) {
      rs.spec!.replicas = want;
      while (client.pods.length !== want) {
        client.clear();
        await sync();
        const expected = Math.min(burst, Math.abs(want - client.pods.length));
        expect(want ? client.counts().creates : client.counts().deletes).toBe(expected);
        // All but one observed: the controller stays asleep.
        if (want) await observeCreated(client.created.slice(0, -1));
        else await observeDeleted(client.deleted.slice(0, -1));
        const last = want ? client.created.at(-1)! : client.deleted.at(-1)!;
        expect(expectations.pending('default/foobar')).toEqual(want ? { add: 1, del: 0 } : { add: 0, del: 1 });
        const before = client.counts();
        await sync();
        expect(client.counts()).toEqual(before);
        if (want) await observeCreated([last as Pod]);
        else await observeDeleted([last as string]);
      }
      expect(client.pods).toHaveLength(want);
    }
  });
});
