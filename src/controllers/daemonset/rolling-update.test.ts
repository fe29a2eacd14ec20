/**
 * Upstream 1.33 pkg/controller/daemon/update_test.go, ported against the in-memory fake:
 * TestDaemonSetUpdatesPods (maxUnavailable 2 over 5 nodes, step by step),
 * TestDaemonSetUpdatesPodsWithMaxSurge (maxSurge 2), TestDaemonSetUpdatesWhenNewPodIsNotReady,
 * TestDaemonSetUpdatesSomeOldPodsNotReady, TestDaemonSetUpdatesPodsNotMatchTainstWithMaxSurge,
 * TestDaemonSetUpdatesAllOldPodsNotReady, TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge,
 * TestDaemonSetUpdatesNoTemplateChanged, an OnDelete row, and TestGetUnavailableNumbers's rows
 * (updatedDesiredNodeCounts: maxSurge, maxUnavailable, desired, nodes without pods).
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { expectSync, fixture, newDaemonSet, newNode } from './fake-client.fixture.js';
import { updatedDesiredNodeCounts } from './rolling-update.js';

/** A DaemonSet on 5 nodes with its 5 pods created and ready (the start of each upstream update test). */
async function running(strategy: unknown = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }) {
  const ds = newDaemonSet('foo', strategy);
  const f = fixture(ds);
  f.client.addNodes(0, 5);
  await expectSync(ds, f, 5, 0);
  f.client.markPodsReady();
  return { ds, f };
}

const setImage = (ds: DaemonSet, image: string) => {
  ds.spec!.template!.spec!.containers[0].image = image;
};
const rolling = (rollingUpdate: Record<string, unknown>) => ({ type: 'RollingUpdate', rollingUpdate });

describe('rolling update (upstream update_test.go)', () => {
  it('TestDaemonSetUpdatesPods: maxUnavailable 2 replaces two nodes at a time', async () => {
    const { ds, f } = await running();
    setImage(ds, 'foo2/bar2');
    ds.spec!.updateStrategy = rolling({ maxUnavailable: 2 });
    for (const n of [2, 2, 1]) {
      await expectSync(ds, f, 0, n);
      await expectSync(ds, f, n, 0);
      f.client.markPodsReady();
    }
    await expectSync(ds, f, 0, 0);
    expect(f.client.pods.map((p) => p.spec?.containers[0].image)).toEqual(Array(5).fill('foo2/bar2'));
    expect(ds.status?.updatedNumberScheduled).toBe(5);
  });

  it('TestDaemonSetUpdatesPodsWithMaxSurge: new pods first, old ones deleted once the new are ready', async () => {
    const { ds, f } = await running();
    setImage(ds, 'foo2/bar2');
    ds.spec!.updateStrategy = rolling({ maxSurge: 2, maxUnavailable: 0 });
    await expectSync(ds, f, 2, 0);
    await expectSync(ds, f, 0, 0);
    f.client.markPodsReady();
    await expectSync(ds, f, 2, 2);
    await expectSync(ds, f, 0, 0);
    f.client.markPodsReady();
    await expectSync(ds, f, 5 % 2, 2);
    await expectSync(ds, f, 0, 0);
    f.client.markPodsReady();
    await expectSync(ds, f, 0, 5 % 2);
    await expectSync(ds, f, 0, 0);
    expect(f.client.pods).toHaveLength(5);
  });

  it('TestDaemonSetUpdatesWhenNewPodIsNotReady: an unready new pod holds the update', async () => {
    const { ds, f } = await running();
    setImage(ds, 'foo2/bar2');
    ds.spec!.updateStrategy = rolling({ maxUnavailable: 3 });
    await expectSync(ds, f, 0, 3);
    await expectSync(ds, f, 3, 0);
    // The new pods are not ready: numUnavailable == maxUnavailable.
    await expectSync(ds, f, 0, 0);
  });

  it('TestDaemonSetUpdatesSomeOldPodsNotReady: a second update replaces the unready ones, the ready stay', async () => {
    const { ds, f } = await running();
    setImage(ds, 'foo2/bar2');
    ds.spec!.updateStrategy = rolling({ maxUnavailable: 2 });
    await expectSync(ds, f, 0, 2);
    await expectSync(ds, f, 2, 0);
    await expectSync(ds, f, 0, 0);
    setImage(ds, 'foo2/bar3');
    await expectSync(ds, f, 0, 2);
    await expectSync(ds, f, 2, 0);
    await expectSync(ds, f, 0, 0);
    const ready = f.client.pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready'));
    expect(ready).toHaveLength(5 - 2);
  });

  it('TestDaemonSetUpdatesPodsNotMatchTainstWithMaxSurge: the pod on a node no longer tolerated goes once others are available', async () => {
    const ds = newDaemonSet('foo', rolling({ maxSurge: 1, maxUnavailable: 0 }));
    ds.spec!.template!.spec!.tolerations = [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }];
    const f = fixture(ds);
    f.client.addNodes(0, 5);
    f.client.nodes[0].spec = { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] };
    await expectSync(ds, f, 5, 0);
    f.client.markPodsReady();
    ds.spec!.template!.spec!.tolerations = null;
    await expectSync(ds, f, 1, 1);
    await expectSync(ds, f, 0, 0);
    for (let i = 0; i < 3; i++) {
      f.client.markPodsReady();
      await expectSync(ds, f, 1, 1);
      await expectSync(ds, f, 0, 0);
    }
    f.client.markPodsReady();
    await expectSync(ds, f, 0, 1);
    await expectSync(ds, f, 0, 0);
    expect(
      f.client.pods
        .map(
          (p) =>
            p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0]
              .matchFields?.[0].values?.[0],
        )
        .sort(),
    ).toEqual(['node-1', 'node-2', 'node-3', 'node-4']);
  });

  it('TestDaemonSetUpdatesAllOldPodsNotReady: unavailable old pods are all replaced at once', async () => {
    const ds = newDaemonSet('foo', rolling({ maxUnavailable: 3 }));
    const f = fixture(ds);
    f.client.addNodes(0, 5);
    await expectSync(ds, f, 5, 0);
    setImage(ds, 'foo2/bar2');
    await expectSync(ds, f, 0, 5);
    await expectSync(ds, f, 5, 0);
    await expectSync(ds, f, 0, 0);
  });

  it('TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge: surge onto every node whose old pod is unavailable', async () => {
    const ds = newDaemonSet('foo', rolling({ maxSurge: 2, maxUnavailable: 0 }));
    const f = fixture(ds);
    f.client.addNodes(0, 5);
    await expectSync(ds, f, 5, 0);
    setImage(ds, 'foo2/bar2');
    await expectSync(ds, f, 5, 0);
    // An old pod that is not ready goes at once beside its replacement (manage()'s surge rule).
    await expectSync(ds, f, 0, 5);
    await expectSync(ds, f, 0, 0);
    expect(f.client.pods.map((p) => p.spec?.containers[0].image)).toEqual(Array(5).fill('foo2/bar2'));
  });

  it('TestDaemonSetUpdatesNoTemplateChanged: a strategy change alone replaces nothing', async () => {
    const { ds, f } = await running();
    ds.spec!.updateStrategy = rolling({ maxUnavailable: 3 });
    await expectSync(ds, f, 0, 0);
  });

  it('OnDelete: a template change replaces no pod until one is deleted', async () => {
    const { ds, f } = await running({ type: 'OnDelete' });
    setImage(ds, 'foo2/bar2');
    await expectSync(ds, f, 0, 0);
    f.client.pods = f.client.pods.slice(1);
    await expectSync(ds, f, 1, 0);
    expect(f.client.created[0].spec?.containers[0].image).toBe('foo2/bar2');
  });
});

describe('updatedDesiredNodeCounts (upstream TestGetUnavailableNumbers)', () => {
  const nodes = (n: number) => Array.from({ length: n }, (_, i) => newNode(`node-${i}`));
  const podsOn = (...names: string[]) => new Map(names.map((n) => [n, [{ metadata: { name: `p-${n}` } } as Pod]]));
  it.each([
    ['No nodes', rolling({ maxUnavailable: 0 }), 0, [], { maxSurge: 0, maxUnavailable: 0, desired: 0 }, 0],
    [
      'Two nodes with ready pods',
      rolling({ maxUnavailable: 1 }),
      2,
      ['node-0', 'node-1'],
      { maxSurge: 0, maxUnavailable: 1, desired: 2 },
      0,
    ],
    [
      'Two nodes, one node without pods',
      rolling({ maxUnavailable: 0 }),
      2,
      ['node-0'],
      { maxSurge: 0, maxUnavailable: 1, desired: 2 },
      1,
    ],
    [
      'Two nodes, one node without pods, surge',
      rolling({ maxSurge: 0, maxUnavailable: 0 }),
      2,
      ['node-0'],
      { maxSurge: 0, maxUnavailable: 1, desired: 2 },
      1,
    ],
    [
      'Two nodes with pods, MaxUnavailable in percents',
      rolling({ maxUnavailable: '50%' }),
      2,
      ['node-0', 'node-1'],
      { maxSurge: 0, maxUnavailable: 1, desired: 2 },
      0,
    ],
    [
      'Two nodes with pods, MaxSurge in percents',
      rolling({ maxSurge: '50%', maxUnavailable: 0 }),
      2,
      ['node-0', 'node-1'],
      { maxSurge: 1, maxUnavailable: 0, desired: 2 },
      0,
    ],
    [
      'Two nodes with pods, MaxSurge is 100%',
      rolling({ maxSurge: '100%', maxUnavailable: 0 }),
      2,
      ['node-0', 'node-1'],
      { maxSurge: 2, maxUnavailable: 0, desired: 2 },
      0,
    ],
    [
      'Three nodes, MaxUnavailable 50% rounds up',
      rolling({ maxUnavailable: '50%' }),
      3,
      ['node-0', 'node-1'],
      { maxSurge: 0, maxUnavailable: 2, desired: 3 },
      1,
    ],
    ['OnDelete', { type: 'OnDelete' }, 2, [], { maxSurge: 0, maxUnavailable: 1, desired: 2 }, 2],
  ])('%s', (_name, strategy, nodeCount, withPods, want, emptyNodes) => {
    const byNode = podsOn(...withPods);
    expect(updatedDesiredNodeCounts(newDaemonSet('foo', strategy), nodes(nodeCount), byNode)).toEqual(want);
    expect([...byNode.values()].filter((p) => !p.length)).toHaveLength(emptyNodes);
  });

  it('refuses a malformed maxUnavailable', () =>
    expect(() =>
      updatedDesiredNodeCounts(newDaemonSet('foo', rolling({ maxUnavailable: 'x' })), nodes(1), new Map()),
    ).toThrow('invalid value for MaxUnavailable'));
});
