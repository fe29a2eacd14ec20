/**
 * The empty-selector case of upstream 1.33 daemon_controller_test.go (expectSyncDaemonSets 0, 0
 * and one SelectingAll Event), update_test.go TestControlledHistories (both cases), the revision
 * history (creation, pruning beyond revisionHistoryLimit, an old template's revision renumbered)
 * and misscheduled pods.
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import { expectSync, fixture, newDaemonSet, simpleNodeLabel } from './fake-client.fixture.js';
import { controlledHistories } from './history.js';
import { syncDaemonSet } from './sync.js';

const withSpec = (ds: DaemonSet, spec: Record<string, unknown>): DaemonSet => {
  ds.spec!.template!.spec = { ...ds.spec!.template!.spec!, ...spec } as never;
  return ds;
};

describe('DaemonSet sync (selector, history)', () => {
  it('TestSelectingAll: an empty selector records SelectingAll and does nothing', async () => {
    const d = newDaemonSet('foo');
    d.spec!.selector = {};
    const f = fixture(d);
    f.client.addNodes(0, 1);
    await expectSync(d, f, 0, 0, 1);
    expect(f.client.events[0].reason).toBe('SelectingAll');
  });

  it('records each template as a ControllerRevision and prunes beyond revisionHistoryLimit', async () => {
    const d = newDaemonSet('foo');
    const f = fixture(d);
    for (let i = 1; i <= 4; i++) {
      d.spec!.template!.spec!.containers[0].image = `foo/bar:${i}`;
      await syncDaemonSet('default', 'foo', f.deps);
    }
    // revisionHistoryLimit 2: the current revision and the two before it.
    expect(f.client.revisions.map((r) => r.revision).sort()).toEqual([2, 3, 4]);
    const cur = f.client.revisions.find((r) => r.revision === 4);
    expect(cur?.metadata.name).toBe(`foo-${cur?.metadata.labels?.['controller-revision-hash']}`);
    expect(cur?.data).toEqual({ spec: { template: { ...d.spec!.template, $patch: 'replace' } } });
    // Going back to an old template raises that revision's number instead of making a new one.
    d.spec!.template!.spec!.containers[0].image = 'foo/bar:3';
    await syncDaemonSet('default', 'foo', f.deps);
    expect(f.client.revisions.map((r) => r.revision).sort()).toEqual([2, 4, 5]);
  });

  it('TestControlledHistories: adopts an orphan revision of its namespace, not of another', async () => {
    const d = newDaemonSet('ds1');
    const f = fixture(d);
    const rev = (name: string, namespace: string, owned: boolean) =>
      ({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name,
          namespace,
          uid: name,
          labels: { ...d.spec!.template!.metadata!.labels },
          ...(owned
            ? {
                ownerReferences: [
                  { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds1', uid: d.metadata.uid, controller: true },
                ],
              }
            : {}),
        },
        revision: 1,
      }) as never;
    f.client.revisions = [
      rev('ds1-x1', 'default', true),
      rev('ds1-x2', 'default', false),
      rev('ds1-x3', 'default-other', false),
    ];
    const claimed = await controlledHistories(d, f.client);
    expect(claimed.map((r) => r.metadata.name)).toEqual(['ds1-x1', 'ds1-x2']);
    expect(f.client.adoptedRevisions).toEqual(['ds1-x2']);
  });

  it('pods on nodes that should not run them are deleted, and counted misscheduled until gone', async () => {
    const d = withSpec(newDaemonSet('foo'), { nodeSelector: simpleNodeLabel });
    const f = fixture(d);
    f.client.addNodes(0, 2);
    f.client.addPods('node-0', 1, d);
    f.client.addPods('node-1', 1, d, undefined, { metadata: { deletionTimestamp: new Date().toISOString() } } as never);
    await expectSync(d, f, 0, 1);
    expect(f.client.statuses[0]).toMatchObject({ numberMisscheduled: 1, desiredNumberScheduled: 0 });
  });
});
