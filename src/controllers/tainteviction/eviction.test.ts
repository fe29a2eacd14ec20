/**
 * Upstream 1.33 pkg/controller/tainteviction/taint_eviction_test.go, ported: TestCreatePod, TestDeletePod, TestUpdatePod, TestCreateNode, TestDeleteNode, TestUpdateNode,
 * TestUpdateNodeWithMultipleTaints, TestUpdateNodeWithMultiplePods,
 * TestEventualConsistency, TestPodDeletionEvent; the fake clientset's patch and delete actions
 * are the fake client's `actions`, time is vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { FakeClient, newNode, newPod, taint, tolerating } from './eviction.fixture.js';
import type { Taint } from './tolerations.js';
import { TaintEviction } from './eviction.js';

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
afterEach(() => vi.useRealTimers());

/** upstream verifyPodActions: let the controller work, then check for a status patch and a delete. */
async function verify(client: FakeClient, expectPatch: boolean, expectDelete: boolean) {
  await vi.advanceTimersByTimeAsync(50);
  expect(client.did('patch')).toBe(expectPatch);
  expect(client.did('delete')).toBe(expectDelete);
}

describe('TestCreatePod', () => {
  const cases: [string, Pod, Record<string, Taint[]>, boolean][] = [
    ['not scheduled - ignore', newPod('pod1', ''), {}, false],
    ['scheduled on untainted Node', newPod('pod1', 'node1'), {}, false],
    ['schedule on tainted Node', newPod('pod1', 'node1'), { node1: [taint(1)] }, true],
    [
      'schedule on tainted Node with finite toleration',
      tolerating(newPod('pod1', 'node1'), 1, 100),
      { node1: [taint(1)] },
      false,
    ],
    [
      'schedule on tainted Node with infinite toleration',
      tolerating(newPod('pod1', 'node1'), 1, -1),
      { node1: [taint(1)] },
      false,
    ],
    [
      'schedule on tainted Node with infinite invalid toleration',
      tolerating(newPod('pod1', 'node1'), 2, -1),
      { node1: [taint(1)] },
      true,
    ],
  ];
  it.each(cases)('%s', async (_d, pod, tainted, evicted) => {
    const client = FakeClient.of(pod);
    const c = new TaintEviction(client);
    for (const [n, t] of Object.entries(tainted)) c.taintedNodes.set(n, t);
    c.podUpdated(undefined, pod);
    await verify(client, evicted, evicted);
    c.stop();
  });
});

it('TestDeletePod: a deleted pod on a tainted node is only forgotten', async () => {
  const client = FakeClient.of();
  const c = new TaintEviction(client);
  c.taintedNodes.set('node1', [taint(1)]);
  c.podUpdated(newPod('pod1', 'node1'), undefined);
  await verify(client, false, false);
});

describe('TestUpdatePod', () => {
  const cases: [string, Pod, Pod, boolean, boolean][] = [
    ['scheduling onto tainted Node', newPod('pod1', ''), newPod('pod1', 'node1'), false, true],
    [
      'scheduling onto tainted Node with toleration',
      tolerating(newPod('pod1', ''), 1, -1),
      tolerating(newPod('pod1', 'node1'), 1, -1),
      false,
      false,
    ],
    ['removing toleration', tolerating(newPod('pod1', 'node1'), 1, 100), newPod('pod1', 'node1'), true, true],
    [
      "lengthening toleration shouldn't work",
      tolerating(newPod('pod1', 'node1'), 1, 1),
      tolerating(newPod('pod1', 'node1'), 1, 100),
      true,
      true,
    ],
  ];
  it.each(cases)('%s', async (_d, prev, next, awaitScheduled, evicted) => {
    const client = FakeClient.of(prev);
    const c = new TaintEviction(client);
    c.taintedNodes.set('node1', [taint(1)]);
    c.podUpdated(undefined, prev);
    if (awaitScheduled) {
      // upstream polls every 10 ms for the scheduled eviction: some time passes.
      await vi.advanceTimersByTimeAsync(10);
      expect(c.queue.get('default/pod1')).toBeDefined();
    }
    client.pods.set('pod1', next);
    c.podUpdated(prev, next);
    // upstream verifyPodActions polls for up to 5 s: the 1 s eviction scheduled first stands.
    await vi.advanceTimersByTimeAsync(5000);
    expect(client.did('patch')).toBe(evicted);
    expect(client.did('delete')).toBe(evicted);
    c.stop();
  });
});

describe('TestCreateNode', () => {
  const cases: [string, Pod, Node, boolean][] = [
    ['Creating Node matching already assigned Pod', newPod('pod1', 'node1'), newNode('node1'), false],
    ['Creating tainted Node matching already assigned Pod', newPod('pod1', 'node1'), newNode('node1', [1]), true],
    [
      'Creating tainted Node matching already assigned tolerating Pod',
      tolerating(newPod('pod1', 'node1'), 1, -1),
      newNode('node1', [1]),
      false,
    ],
  ];
  it.each(cases)('%s', async (_d, pod, node, evicted) => {
    const client = FakeClient.of(pod);
    const c = new TaintEviction(client);
    c.nodeUpdated(undefined, node);
    await verify(client, evicted, evicted);
  });
});

it('TestDeleteNode: the node is no longer tainted', () => {
  const c = new TaintEviction(FakeClient.of());
  c.taintedNodes.set('node1', [taint(1)]);
  c.nodeUpdated(newNode('node1'), undefined);
  expect(c.taintedNodes.has('node1')).toBe(false);
});

describe('TestUpdateNode', () => {
  const multi = newPod('pod1', 'node1', [
    { key: 'testTaint1', value: 'test1', effect: 'NoExecute', tolerationSeconds: 1 },
    { key: 'testTaint2', value: 'test2', effect: 'NoExecute', tolerationSeconds: 100 },
  ]);
  const cases: [string, Pod, Node, Node, boolean, number][] = [
    [
      'Added taint, expect node patched and deleted',
      newPod('pod1', 'node1'),
      newNode('node1'),
      newNode('node1', [1]),
      true,
      0,
    ],
    [
      'Added tolerated taint',
      tolerating(newPod('pod1', 'node1'), 1, 100),
      newNode('node1'),
      newNode('node1', [1]),
      false,
      0,
    ],
    [
      'Only one added taint tolerated',
      tolerating(newPod('pod1', 'node1'), 1, 100),
      newNode('node1'),
      newNode('node1', [1, 2]),
      true,
      0,
    ],
    ['Taint removed', tolerating(newPod('pod1', 'node1'), 1, 1), newNode('node1', [1]), newNode('node1'), false, 1500],
    [
      'Pod with multiple tolerations are evicted when first one runs out',
      multi,
      newNode('node1'),
      newNode('node1', [1, 2]),
      true,
      1500,
    ],
  ];
  it.each(cases)('%s', async (_d, pod, oldNode, node, evicted, sleep) => {
    const client = FakeClient.of(pod);
    const c = new TaintEviction(client);
    c.nodeUpdated(oldNode, node);
    if (sleep) await vi.advanceTimersByTimeAsync(sleep);
    await verify(client, evicted, evicted);
    c.stop();
  });
});

it('TestUpdateNodeWithMultipleTaints: infinitely and temporarily tolerated taints', async () => {
  const pod = newPod('pod1', 'node1', [
    { key: 'testTaint1', operator: 'Exists', effect: 'NoExecute' },
    { key: 'testTaint2', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
  ]);
  const client = FakeClient.of(pod);
  const c = new TaintEviction(client);
  const steps: [number[] | undefined, boolean][] = [
    [undefined, false],
    [[1], false],
    [[1, 2], true],
    [[1], false],
  ];
  let prev: Node | undefined;
  for (const [taints, queued] of steps) {
    const node = newNode('node1', taints);
    c.nodeUpdated(prev, node);
    prev = node;
    expect(c.queue.get('default/pod1') !== undefined).toBe(queued);
  }
  await vi.advanceTimersByTimeAsync(61_000);
  expect(client.did('delete')).toBe(false);
});

describe('TestUpdateNodeWithMultiplePods', () => {
  const pods = () => [
    newPod('pod1', 'node1'),
    tolerating(newPod('pod2', 'node1'), 1, 1),
    tolerating(newPod('pod3', 'node1'), 1, -1),
  ];
  it('Pods with different toleration times are evicted appropriately', async () => {
    const client = FakeClient.of(...pods());
    const c = new TaintEviction(client);
    c.nodeUpdated(newNode('node1'), newNode('node1', [1]));
    await vi.advanceTimersByTimeAsync(500);
    expect(client.actions.filter((a) => a.verb === 'delete').map((a) => a.name)).toEqual(['pod1']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.actions.filter((a) => a.verb === 'delete').map((a) => a.name)).toEqual(['pod1', 'pod2']);
    c.stop();
  });
  it('Evict all pods not matching all taints instantly', async () => {
    const client = FakeClient.of(...pods());
    const c = new TaintEviction(client);
    c.nodeUpdated(newNode('node1'), newNode('node1', [1, 2]));
    await vi.advanceTimersByTimeAsync(500);
    expect(
      client.actions
        .filter((a) => a.verb === 'delete')
        .map((a) => a.name)
        .sort(),
    ).toEqual(['pod1', 'pod2', 'pod3']);
  });
});

describe('TestEventualConsistency', () => {
  const cases: [string, Pod | undefined, Pod][] = [
    ['existing pod2 scheduled onto tainted Node', newPod('pod2', ''), newPod('pod2', 'node1')],
    [
      'existing pod2 with taint toleration scheduled onto tainted Node',
      tolerating(newPod('pod2', ''), 1, 100),
      tolerating(newPod('pod2', 'node1'), 1, 100),
    ],
    ['new pod2 created on tainted Node', undefined, newPod('pod2', 'node1')],
    ['new pod2 with tait toleration created on tainted Node', undefined, tolerating(newPod('pod2', 'node1'), 1, 100)],
  ];
  it.each(cases)('%s', async (_d, prev, next) => {
    const client = FakeClient.of(newPod('pod1', 'node1'));
    const c = new TaintEviction(client);
    if (prev) c.podUpdated(undefined, prev);
    c.nodeUpdated(newNode('node1'), newNode('node1', [1]));
    await verify(client, true, true);
    expect(client.did('delete', 'pod1')).toBe(true);
    client.pods.set('pod2', next);
    c.podUpdated(prev, next);
    const tolerates = next.spec?.tolerations !== undefined;
    await vi.advanceTimersByTimeAsync(50);
    expect(client.did('delete', 'pod2')).toBe(!tolerates);
    if (tolerates) {
      await vi.advanceTimersByTimeAsync(100_000);
      expect(client.did('delete', 'pod2')).toBe(true);
    }
  });
});

it('TestPodDeletionEvent: marking and cancelling deletion are reported', async () => {
  const pod = tolerating(newPod('test', 'node1'), 1, 100);
  const client = FakeClient.of(pod);
  const c = new TaintEviction(client);
  c.nodeUpdated(undefined, newNode('node1', [1]));
  c.nodeUpdated(newNode('node1', [1]), newNode('node1'));
  c.nodeUpdated(newNode('node1'), newNode('node1', [2]));
  await vi.advanceTimersByTimeAsync(50);
  expect(client.events).toEqual(['Cancelling deletion of Pod default/test', 'Marking for deletion Pod default/test']);
  const cond = client.pods.get('test')?.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
  expect(cond).toMatchObject({
    status: 'True',
    reason: 'DeletionByTaintManager',
    message: 'Taint manager: deleting due to NoExecute taint',
  });
});
