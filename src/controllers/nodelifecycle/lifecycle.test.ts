/**
 * Upstream 1.33 pkg/controller/nodelifecycle/node_lifecycle_controller_test.go, ported to the
 * lifecycle logic over a fake client: TestSwapUnreachableNotReadyTaints,
 * TestMonitorNodeHealthMarkPodsNotReady (2 cases), TestNodeEventGeneration (RegisteredNode),
 * and the taint-based eviction essentials of TestMonitorNodeHealthEvictPodsWithDisruption (a
 * healthy zone taints at its rate; a fully disrupted cluster taints nothing and clears the
 * taints; a recovered node loses its taints).
 */
import { describe, expect, it } from 'vitest';
import { cond, FakeLifecycleClient, testNode, testPod } from './lifecycle.fixture.js';
import { NodeLifecycle, type LifecycleSettings } from './lifecycle.js';
import { NOT_READY_TAINT, taintExists, UNREACHABLE_TAINT } from './taints.js';

/** upstream's test settings (testRateLimiterQPS 1, testLargeClusterThreshold 20, testUnhealthyThreshold 0.55). */
const SETTINGS: LifecycleSettings = {
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  evictionLimiterQps: 1,
  secondaryEvictionLimiterQps: 1,
  largeClusterThreshold: 20,
  unhealthyZoneThreshold: 0.55,
};
const FAKE_NOW = Date.parse('2017-01-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const LONG_AGO = '2012-01-01T00:00:00Z';
const STALE = '2015-01-01T12:00:00Z';

function setup(client: FakeLifecycleClient) {
  let now = FAKE_NOW;
  const lc = new NodeLifecycle(client, SETTINGS, () => now);
  return { lc, advance: (ms: number) => (now += ms), now: () => now };
}

it('TestSwapUnreachableNotReadyTaints: unreachable first, swapped to not-ready when Ready turns False', async () => {
  const client = new FakeLifecycleClient(
    [
      testNode('node0', LONG_AGO, [cond('Ready', 'Unknown', STALE)]),
      // A healthy second node, so the zone is not fully disrupted.
      testNode('node1', LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))]),
    ],
    [testPod('pod0', 'node0')],
  );
  const { lc, advance } = setup(client);
  await lc.monitorNodeHealth();
  await lc.doNoExecuteTaintingPass();
  expect(taintExists(client.nodes.get('node0')!.spec?.taints, UNREACHABLE_TAINT)).toBe(true);

  advance(10 * 60_000);
  client.setStatus('node0', [cond('Ready', 'False', iso(FAKE_NOW + 9 * 60_000), iso(FAKE_NOW))]);
  client.setStatus('node1', [cond('Ready', 'True', iso(FAKE_NOW + 10 * 60_000), iso(FAKE_NOW))]);
  await lc.monitorNodeHealth();
  await lc.doNoExecuteTaintingPass();
  const taints = client.nodes.get('node0')!.spec?.taints;
  expect(taintExists(taints, NOT_READY_TAINT)).toBe(true);
  expect(taintExists(taints, UNREACHABLE_TAINT)).toBe(false);
  expect(taints?.find((t) => t.key === NOT_READY_TAINT.key)?.timeAdded).toBe(iso(FAKE_NOW + 10 * 60_000));
});

describe('TestMonitorNodeHealthMarkPodsNotReady', () => {
  it('Node created long time ago, with status updated by kubelet exceeds grace period: pods marked NotReady', async () => {
    const client = new FakeLifecycleClient(
      [
        testNode('node0', LONG_AGO, [
          cond('Ready', 'True', iso(FAKE_NOW)),
          cond('DiskPressure', 'False', iso(FAKE_NOW)),
        ]),
      ],
      [testPod('pod0', 'node0'), testPod('other', 'node1')],
    );
    const { lc, advance } = setup(client);
    await lc.monitorNodeHealth();
    expect(client.actions).toEqual([]);
    advance(60_000);
    await lc.monitorNodeHealth();
    expect(client.actions).toEqual(['update-status node0', 'update-pod-status pod0']);
    expect(client.pods.get('pod0')!.status?.conditions?.[0]).toMatchObject({ type: 'Ready', status: 'False' });
    expect(client.pods.get('other')!.status?.conditions?.[0]).toMatchObject({ status: 'True' });
    expect(client.events).toContain('NodeNotReady node0');
    expect(client.events).toContain('NodeNotReady pod0');
  });

  it('Node created long time ago, with status updated recently: pods left alone', async () => {
    const client = new FakeLifecycleClient(
      [testNode('node0', LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))])],
      [testPod('pod0', 'node0')],
    );
    const { lc, advance } = setup(client);
    await lc.monitorNodeHealth();
    advance(40_000);
    client.setStatus('node0', [cond('Ready', 'True', iso(FAKE_NOW + 40_000), iso(FAKE_NOW))]);
    advance(20_000);
    await lc.monitorNodeHealth();
    expect(client.actions).toEqual([]);
  });
});

it('TestNodeEventGeneration: a newly seen node is registered, a removed one reported', async () => {
  const client = new FakeLifecycleClient([testNode('node0', LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))])]);
  const { lc } = setup(client);
  await lc.monitorNodeHealth();
  client.nodes.delete('node0');
  await lc.monitorNodeHealth();
  expect(client.events).toEqual(['RegisteredNode node0', 'RemovingNode node0']);
});

describe('taint-based eviction and zone disruption', () => {
  it('every node not Ready (full disruption): no NoExecute taint, existing ones removed', async () => {
    const client = new FakeLifecycleClient([
      testNode('node0', LONG_AGO, [cond('Ready', 'Unknown', STALE)], [{ ...UNREACHABLE_TAINT }]),
      testNode('node1', LONG_AGO, [cond('Ready', 'False', STALE)]),
    ]);
    const { lc } = setup(client);
    await lc.monitorNodeHealth();
    await lc.doNoExecuteTaintingPass();
    for (const name of ['node0', 'node1']) expect(client.nodes.get(name)!.spec?.taints ?? []).toEqual([]);
    expect([...lc.zoneStates.values()]).toEqual(['FullDisruption']);
  });

  it('a node Ready again loses its NoExecute taints', async () => {
    const client = new FakeLifecycleClient([
      testNode('node0', LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))], [{ ...UNREACHABLE_TAINT }]),
      testNode('node1', LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))]),
    ]);
    const { lc } = setup(client);
    await lc.monitorNodeHealth();
    expect(client.nodes.get('node0')!.spec?.taints).toEqual([]);
  });

  it('a healthy zone taints its not-Ready nodes one per 1/qps seconds', async () => {
    const client = new FakeLifecycleClient([
      ...['a', 'b'].map((n) => testNode(n, LONG_AGO, [cond('Ready', 'False', STALE)])),
      ...['c', 'd', 'e', 'f', 'g'].map((n) => testNode(n, LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))])),
    ]);
    const { lc, advance } = setup(client);
    await lc.monitorNodeHealth();
    await lc.doNoExecuteTaintingPass();
    const tainted = () => ['a', 'b'].filter((n) => taintExists(client.nodes.get(n)!.spec?.taints, NOT_READY_TAINT));
    expect(tainted()).toHaveLength(1);
    advance(1000);
    await lc.doNoExecuteTaintingPass();
    expect(tainted()).toEqual(['a', 'b']);
  });
});
