// Ports upstream pkg/controller/statefulset/stateful_set_control_test.go
// TestStatefulSetControl_getSetRevisions, TestStatefulSetControlRollingUpdate,
// TestStatefulSetControlRollingUpdateWithPartition, TestStatefulSetControlOnDeleteUpdate,
// TestStatefulSetHonorRevisionHistoryLimit, TestStatefulSetControlLimitsHistory,
// TestStatefulSetControlRollback, and the maxUnavailable rolling update, over the fake client.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { listRevisions, setRevisions } from './control.js';
import { FakeStatefulSetClient } from './fake-client.fixture.js';
import {
  assertBurstInvariants,
  assertMonotonicInvariants,
  assertUpdateInvariants,
  burst,
  newStatefulSet,
  pass,
  podsOf,
  scaleDown,
  scaleUp,
  updateControl,
  type Invariant,
} from './harness.fixture.js';
import { applyRevision, equalRevision, newRevision, sortRevisions } from './revisions.js';

const images = (set: StatefulSet, client: FakeStatefulSetClient) =>
  podsOf(set, client).map((p) => p.spec?.containers[0].image);
const setImage = (set: StatefulSet, image: string) => {
  set.spec!.template!.spec!.containers[0].image = image;
  return set;
};

describe('getStatefulSetRevisions (upstream TestStatefulSetControl_getSetRevisions)', () => {
  const set = newStatefulSet(3);
  set.status = { collisionCount: 0 };
  const rev0 = newRevision(set, 1, 0);
  const set1 = setImage(structuredClone(set), 'foo');
  set1.status = { currentRevision: rev0.metadata.name, collisionCount: 0 };
  const rev1 = newRevision(set1, 2, 0);
  const set2 = structuredClone(set1);
  set2.spec!.template!.metadata!.labels!.new = 'label';
  const rev2 = newRevision(set2, 3, 0);
  it.each([
    ['creates initial revision', [], set, 1, rev0, rev0, 1],
    ['creates revision on update', [rev0], set1, 2, rev0, rev1, 2],
    ['must not recreate a new revision of same set', [rev0, rev1], set1, 2, rev0, rev1, 2],
    ['must rollback to a previous revision', [rev0, rev1, rev2], set1, 3, rev0, rev1, 4],
  ])('%s', async (_name, existing, s, count, wantCurrent, wantUpdate, updateNumber) => {
    const client = new FakeStatefulSetClient();
    for (const rev of existing) await client.createRevision(rev);
    const { current, update } = await setRevisions(s, sortRevisions(await listRevisions(s, client)), client);
    expect(await listRevisions(s, client)).toHaveLength(count);
    expect(equalRevision(current, wantCurrent)).toBe(true);
    expect(equalRevision(update, wantUpdate)).toBe(true);
    expect(current.revision).toBe(wantCurrent.revision);
    expect(update.revision).toBe(updateNumber);
  });

  it('bumps collisionCount when the name is taken by a revision with other data', async () => {
    const client = new FakeStatefulSetClient();
    const squatter = {
      ...newRevision(set1, 1, 0),
      metadata: { ...newRevision(set1, 1, 0).metadata, name: rev0.metadata.name },
    };
    await client.createRevision(squatter);
    const fresh = structuredClone(set);
    fresh.metadata.uid = 'other'; // the squatter belongs to no one this set lists
    const { update, collisionCount } = await setRevisions(fresh, [], client);
    expect(collisionCount).toBe(1);
    expect(update.metadata.name).not.toBe(rev0.metadata.name);
  });
});

type Update = [string, () => StatefulSet, (s: StatefulSet) => StatefulSet, Invariant, (imgs: unknown[]) => void];
const allFoo = (imgs: unknown[]) => expect(imgs.every((i) => i === 'foo')).toBe(true);

const rollingCases: Update[] = [
  ['monotonic image update', () => newStatefulSet(3), (s) => setImage(s, 'foo'), assertMonotonicInvariants, allFoo],
  [
    'monotonic image update and scale up',
    () => newStatefulSet(3),
    (s) => ((s.spec!.replicas = 5), setImage(s, 'foo')),
    assertMonotonicInvariants,
    allFoo,
  ],
  [
    'monotonic image update and scale down',
    () => newStatefulSet(5),
    (s) => ((s.spec!.replicas = 3), setImage(s, 'foo')),
    assertMonotonicInvariants,
    allFoo,
  ],
  ['burst image update', () => burst(newStatefulSet(3)), (s) => setImage(s, 'foo'), assertBurstInvariants, allFoo],
  [
    'burst image update and scale up',
    () => burst(newStatefulSet(3)),
    (s) => ((s.spec!.replicas = 5), setImage(s, 'foo')),
    assertBurstInvariants,
    allFoo,
  ],
  [
    'burst image update and scale down',
    () => burst(newStatefulSet(5)),
    (s) => ((s.spec!.replicas = 3), setImage(s, 'foo')),
    assertBurstInvariants,
    allFoo,
  ],
];

describe('TestStatefulSetControlRollingUpdate', () => {
  it.each(rollingCases)('%s', async (_n, initial, update, inv, validate) => {
    const client = new FakeStatefulSetClient();
    const set = update(await scaleUp(initial(), client, inv));
    const done = await updateControl(set, client, assertUpdateInvariants);
    validate(images(done, client));
    expect(done.status?.currentRevision).toBe(done.status?.updateRevision);
  });

  it('rolls the highest ordinal first, one pod at a time', async () => {
    const client = new FakeStatefulSetClient();
    const set = setImage(await scaleUp(newStatefulSet(3), client, assertMonotonicInvariants), 'foo');
    await updateControl(set, client, assertUpdateInvariants);
    expect(client.deleted).toEqual(['foo-2', 'foo-1', 'foo-0']);
  });

  it('with maxUnavailable 2 (MaxUnavailableStatefulSet) deletes two pods at once, and one without the feature', async () => {
    for (const [enabled, want] of [
      [true, ['foo-4', 'foo-3']],
      [false, ['foo-4']],
    ] as const) {
      const client = new FakeStatefulSetClient();
      const set = setImage(await scaleUp(newStatefulSet(5), client, assertMonotonicInvariants), 'foo');
      set.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } };
      client.sets.set('foo', set);
      await pass(set, client, enabled);
      expect(client.deleted).toEqual(want);
    }
  });
});

const partitioned = (imgs: unknown[]) => imgs.forEach((img, i) => expect(img).toBe(i < 2 ? 'nginx' : 'foo'));
describe('TestStatefulSetControlRollingUpdateWithPartition (partition 2)', () => {
  it.each([
    [
      'monotonic image update',
      () => newStatefulSet(3),
      (s: StatefulSet) => setImage(s, 'foo'),
      assertMonotonicInvariants,
    ],
    [
      'monotonic image update and scale up',
      () => newStatefulSet(3),
      (s: StatefulSet) => ((s.spec!.replicas = 5), setImage(s, 'foo')),
      assertMonotonicInvariants,
    ],
    [
      'burst image update',
      () => burst(newStatefulSet(3)),
      (s: StatefulSet) => setImage(s, 'foo'),
      assertBurstInvariants,
    ],
    [
      'burst image update and scale up',
      () => burst(newStatefulSet(3)),
      (s: StatefulSet) => ((s.spec!.replicas = 5), setImage(s, 'foo')),
      assertBurstInvariants,
    ],
  ] as const)('%s', async (_n, initial, update, inv) => {
    const client = new FakeStatefulSetClient();
    const start = initial();
    start.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } };
    const set = update(await scaleUp(start, client, inv));
    const done = await updateControl(set, client, assertUpdateInvariants);
    partitioned(images(done, client));
    expect(done.status?.currentRevision).not.toBe(done.status?.updateRevision);
  });
});

describe('TestStatefulSetControlOnDeleteUpdate', () => {
  const cases: [string, () => StatefulSet, (s: StatefulSet) => StatefulSet, Invariant, (i: number) => string][] = [
    [
      'monotonic image update',
      () => newStatefulSet(3),
      (s) => setImage(s, 'foo'),
      assertMonotonicInvariants,
      () => 'nginx',
    ],
    [
      'monotonic image update and scale up',
      () => newStatefulSet(3),
      (s) => ((s.spec!.replicas = 5), setImage(s, 'foo')),
      assertMonotonicInvariants,
      (i) => (i < 3 ? 'nginx' : 'foo'),
    ],
    [
      'monotonic image update and scale down',
      () => newStatefulSet(5),
      (s) => ((s.spec!.replicas = 3), setImage(s, 'foo')),
      assertMonotonicInvariants,
      () => 'nginx',
    ],
    [
      'burst image update',
      () => burst(newStatefulSet(3)),
      (s) => setImage(s, 'foo'),
      assertBurstInvariants,
      () => 'nginx',
    ],
    [
      'burst image update and scale up',
      () => burst(newStatefulSet(3)),
      (s) => ((s.spec!.replicas = 5), setImage(s, 'foo')),
      assertBurstInvariants,
      (i) => (i < 3 ? 'nginx' : 'foo'),
    ],
    [
      'burst image update and scale down',
      () => burst(newStatefulSet(5)),
      (s) => ((s.spec!.replicas = 3), setImage(s, 'foo')),
      assertBurstInvariants,
      () => 'nginx',
    ],
  ];
  it.each(cases)('%s', async (_n, initial, update, inv, wantAfterUpdate) => {
    const client = new FakeStatefulSetClient();
    const start = initial();
    start.spec!.updateStrategy = { type: 'OnDelete' };
    let set = update(await scaleUp(start, client, inv));
    set = await updateControl(set, client, assertUpdateInvariants);
    images(set, client).forEach((img, i) => expect(img).toBe(wantAfterUpdate(i)));
    const replicas = set.spec!.replicas!;
    set.spec!.replicas = 0;
    set = await scaleDown(set, client, inv);
    set.spec!.replicas = replicas;
    set = await scaleUp(set, client, inv);
    expect(images(set, client).every((img) => img === 'foo')).toBe(true);
  });
});

describe('revision history', () => {
  it('TestStatefulSetHonorRevisionHistoryLimit: never more than limit + 2 (current, update) revisions', async () => {
    const client = new FakeStatefulSetClient();
    let set = await scaleUp(newStatefulSet(3), client, assertMonotonicInvariants);
    for (let i = 0; i < set.spec!.revisionHistoryLimit! + 5; i++) {
      setImage(set, `foo-${i}`);
      client.statusTracker.set(new ApiError(500, 'InternalError', 'API server failed'), 2);
      set = await updateControl(set, client, assertUpdateInvariants).catch(() => client.sets.get('foo')!);
      expect((await listRevisions(set, client)).length).toBeLessThanOrEqual(set.spec!.revisionHistoryLimit! + 2);
    }
  });

  it.each([
    ['monotonic update', () => newStatefulSet(3), assertMonotonicInvariants],
    ['burst update', () => burst(newStatefulSet(3)), assertBurstInvariants],
  ] as const)('TestStatefulSetControlLimitsHistory: %s', async (_n, initial, inv) => {
    const client = new FakeStatefulSetClient();
    let set = await scaleUp(initial(), client, inv);
    for (let i = 0; i < 10; i++) {
      set = await updateControl(setImage(set, `foo-${i}`), client, assertUpdateInvariants);
      set = await pass(set, client);
      expect((await listRevisions(set, client)).length).toBeLessThanOrEqual(set.spec!.revisionHistoryLimit! + 2);
    }
    expect([...client.revisions.values()].map((r) => r.revision).sort((a, b) => a! - b!)).toEqual([9, 10, 11]);
  });

  it.each(rollingCases)('TestStatefulSetControlRollback: %s', async (_n, initial, update, inv) => {
    const client = new FakeStatefulSetClient();
    let set = update(await scaleUp(initial(), client, inv));
    set = await updateControl(set, client, assertUpdateInvariants);
    allFoo(images(set, client));
    const revisions = sortRevisions(await listRevisions(set, client));
    set = applyRevision(set, revisions[0]);
    set = await updateControl(set, client, assertUpdateInvariants);
    expect(images(set, client).every((img) => img === 'nginx')).toBe(true);
    // The first revision was renumbered rather than copied.
    expect(sortRevisions(await listRevisions(set, client)).map((r) => r.revision)).toEqual([2, 3]);
  });
});
