// Ports upstream pkg/controller/statefulset/stateful_set_control_test.go TestStatefulSetControl
// (CreatesPods, ScalesUp, ScalesDown, ReplacesPods, RecreatesFailedPod, CreatePodFailure,
// UpdatePodFailure, UpdateSetStatusFailure, PodRecreateDeleteFailure; Monotonic and Burst) and
// TestStatefulSetControlScaleDownDeleteError, over the fake client.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { FakeStatefulSetClient } from './fake-client.fixture.js';
import {
  assertBurstInvariants,
  assertMonotonicInvariants,
  burst,
  newStatefulSet,
  pass,
  podsOf,
  scaleDown,
  scaleUp,
  setPodPhase,
  setPodReady,
  type Invariant,
} from './harness.fixture.js';
import { isCreated } from './kind.js';

const internal = () => new ApiError(500, 'InternalError', 'Internal error occurred: API server failed');

type Case = (set: StatefulSet, inv: Invariant) => Promise<void>;

const expectCounts = (set: StatefulSet, n: number) => {
  expect(set.status?.replicas ?? 0).toBe(n);
  expect(set.status?.readyReplicas ?? 0).toBe(n);
  expect(set.status?.updatedReplicas ?? 0).toBe(n);
};

const cases: [string, () => StatefulSet, Case][] = [
  [
    'CreatesPods',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      expectCounts(await scaleUp(set, client, inv), 3);
      expect([...client.claims.keys()].sort()).toEqual(['datadir-foo-0', 'datadir-foo-1', 'datadir-foo-2']);
    },
  ],
  [
    'ScalesUp',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      set = await scaleUp(set, client, inv);
      set.spec!.replicas = 4;
      expectCounts(await scaleUp(set, client, inv), 4);
    },
  ],
  [
    'ScalesDown',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      set = await scaleUp(set, client, inv);
      set.spec!.replicas = 0;
      expectCounts(await scaleDown(set, client, inv), 0);
      expect(client.pods.size).toBe(0);
    },
  ],
  [
    'ReplacesPods',
    () => newStatefulSet(5),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      set = await scaleUp(set, client, inv);
      expect(set.status?.replicas).toBe(5);
      for (const n of [0, 2, 4]) client.pods.delete(`foo-${n}`);
      for (let i = 0; i < 5; i += 2) {
        set = await pass(set, client);
        setPodPhase(client, client.pods.get(`foo-${i}`)!, 'Running');
        set = await pass(set, client);
        setPodReady(client, client.pods.get(`foo-${i}`)!);
      }
      set = await pass(set, client);
      expect(set.status?.replicas).toBe(5);
      expect(podsOf(set, client).map((p) => p.metadata.name)).toEqual(['foo-0', 'foo-1', 'foo-2', 'foo-3', 'foo-4']);
    },
  ],
  [
    'RecreatesFailedPod',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      client.sets.set('foo', set);
      set = await pass(set, client);
      inv(set, client);
      setPodPhase(client, podsOf(set, client)[0], 'Failed');
      set = await pass(set, client);
      inv(set, client);
      const pod = podsOf(set, client)[0];
      expect(pod === undefined || !isCreated(pod) || pod.status?.phase === 'Pending').toBe(true);
      expect(client.deleted).toContain('foo-0');
    },
  ],
  [
    'CreatePodFailure',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      client.createPodTracker.set(internal(), 2);
      await expect(scaleUp(set, client, inv)).rejects.toThrow(/API server failed/);
      expectCounts(await scaleUp(client.sets.get('foo')!, client, inv), 3);
    },
  ],
  [
    'UpdatePodFailure',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      client.updatePodTracker.set(internal(), 0);
      set = await scaleUp(set, client, inv);
      expectCounts(set, 3);
      // Mutate a pod's identity: the pass tries to fix it and fails.
      const pod = client.pods.get('foo-0')!;
      client.pods.set('foo-0', { ...pod, metadata: { ...pod.metadata, labels: { foo: 'bar' } } });
      await expect(pass(set, client)).rejects.toThrow(/API server failed/);
    },
  ],
  [
    'UpdateSetStatusFailure',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      client.statusTracker.set(internal(), 2);
      await expect(scaleUp(set, client, inv)).rejects.toThrow(/API server failed/);
      expectCounts(await scaleUp(client.sets.get('foo')!, client, inv), 3);
    },
  ],
  [
    'PodRecreateDeleteFailure',
    () => newStatefulSet(3),
    async (set, inv) => {
      const client = new FakeStatefulSetClient();
      client.sets.set('foo', set);
      set = await pass(set, client);
      inv(set, client);
      setPodPhase(client, podsOf(set, client)[0], 'Failed');
      client.deletePodTracker.set(internal(), 0);
      await expect(pass(set, client)).rejects.toThrow(/API server failed/);
      inv(set, client);
      set = await pass(set, client);
      inv(set, client);
      expect(client.deleted).toContain('foo-0');
    },
  ],
];

describe('TestStatefulSetControl', () => {
  for (const [name, make, run] of cases) {
    it(`${name}/Monotonic`, () => run(make(), assertMonotonicInvariants));
    it(`${name}/Burst`, () => run(burst(make()), assertBurstInvariants));
  }

  it('ScaleDownDeleteError: a failed delete is retried and the set reaches 0', async () => {
    const client = new FakeStatefulSetClient();
    let set = await scaleUp(newStatefulSet(3), client, assertMonotonicInvariants);
    set.spec!.replicas = 0;
    client.deletePodTracker.set(internal(), 2);
    await expect(scaleDown(set, client, assertMonotonicInvariants)).rejects.toThrow(/API server failed/);
    set = await scaleDown(client.sets.get('foo')!, client, assertMonotonicInvariants);
    expectCounts(set, 0);
  });

  it('OrderedReady creates one pod at a time and waits for it to be Running and Ready', async () => {
    const client = new FakeStatefulSetClient();
    const set = newStatefulSet(3);
    client.sets.set('foo', set);
    await pass(set, client);
    await pass(set, client);
    expect([...client.pods.keys()]).toEqual(['foo-0']);
    setPodPhase(client, client.pods.get('foo-0')!, 'Running');
    await pass(set, client);
    expect([...client.pods.keys()]).toEqual(['foo-0']);
    setPodReady(client, client.pods.get('foo-0')!);
    await pass(set, client);
    expect([...client.pods.keys()]).toEqual(['foo-0', 'foo-1']);
  });

  it('Parallel creates every pod in one pass', async () => {
    const client = new FakeStatefulSetClient();
    const set = burst(newStatefulSet(3));
    client.sets.set('foo', set);
    const first = await pass(set, client);
    expect([...client.pods.keys()].sort()).toEqual(['foo-0', 'foo-1', 'foo-2']);
    // The pass counts the pods it was given (none yet), as upstream's; the next one sees them.
    expect(first.status).toMatchObject({ replicas: 0, observedGeneration: 1, collisionCount: 0 });
    const second = await pass(first, client);
    expect(second.status).toMatchObject({ replicas: 3, readyReplicas: 0, currentReplicas: 3, updatedReplicas: 3 });
  });

  it('spec.ordinals.start numbers the pods from start, and pods outside the range are condemned', async () => {
    const client = new FakeStatefulSetClient();
    const set = burst(newStatefulSet(3));
    set.spec!.ordinals = { start: 5 };
    client.sets.set('foo', set);
    await pass(set, client);
    expect([...client.pods.keys()].sort()).toEqual(['foo-5', 'foo-6', 'foo-7']);
    expect([...client.claims.keys()].sort()).toEqual(['datadir-foo-5', 'datadir-foo-6', 'datadir-foo-7']);
    set.spec!.ordinals = { start: 6 };
    await pass(set, client);
    expect(client.deleted).toEqual(['foo-5']);
    expect([...client.pods.keys()].sort()).toEqual(['foo-6', 'foo-7', 'foo-8']);
  });
});
