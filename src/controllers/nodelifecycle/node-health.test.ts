/**
 * Upstream 1.33 pkg/controller/nodelifecycle/node_lifecycle_controller_test.go, ported to the
 * health check: TestMonitorNodeHealthUpdateStatus (4 cases) and
 * TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease (6 cases: the Lease as a heartbeat).
 * Grace periods as upstream's tests: monitor 50 s, startup 60 s.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { cond, testNode } from './lifecycle.fixture.js';
import { checkNodeHealth, type GracePeriods, type NodeHealth } from './node-health.js';

const GRACE: GracePeriods = { nodeMonitorGracePeriodMs: 50_000, nodeStartupGracePeriodMs: 60_000 };
const FAKE_NOW = Date.parse('2017-01-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const LONG_AGO = '2012-01-01T00:00:00Z';
const STALE = '2015-01-01T12:00:00Z';

/** Two monitor passes: at FAKE_NOW, then (after the kubelet's `later` status) `passMs` later. */
function twoPasses(
  node: Node,
  passMs: number,
  lease?: [string | undefined, string | undefined],
  later?: Node['status'],
) {
  const first = checkNodeHealth(node, undefined, lease?.[0], FAKE_NOW, GRACE);
  let current = first.statusUpdate ? { ...node, status: first.statusUpdate } : node;
  if (later) current = { ...current, status: later };
  return { first, second: checkNodeHealth(current, first.health as NodeHealth, lease?.[1], FAKE_NOW + passMs, GRACE) };
}

describe('TestMonitorNodeHealthUpdateStatus', () => {
  it('Node created recently, with no status: nothing written', () => {
    const { first, second } = twoPasses(testNode('node0', iso(FAKE_NOW)), 0);
    expect(first.statusUpdate).toBeUndefined();
    expect(second.statusUpdate).toBeUndefined();
  });

  it('Node created long time ago, without status: every kubelet condition Unknown, never posted', () => {
    const { first } = twoPasses(testNode('node0', LONG_AGO), 0);
    const never = { status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' };
    expect(first.statusUpdate?.conditions).toEqual(
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        ...never,
        lastHeartbeatTime: LONG_AGO,
        lastTransitionTime: iso(FAKE_NOW),
      })),
    );
  });

  it('Node created long time ago, with status updated by kubelet exceeds grace period: Unknown, stopped posting', () => {
    const node = testNode('node0', LONG_AGO, [cond('Ready', 'True', STALE), cond('DiskPressure', 'False', STALE)]);
    const { first, second } = twoPasses(node, 60_000);
    expect(first.statusUpdate).toBeUndefined();
    const at = iso(FAKE_NOW + 60_000);
    const stopped = { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' };
    const never = { status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' };
    expect(second.statusUpdate?.conditions).toEqual([
      { type: 'Ready', ...stopped, lastHeartbeatTime: STALE, lastTransitionTime: at },
      { type: 'DiskPressure', ...stopped, lastHeartbeatTime: STALE, lastTransitionTime: at },
      { type: 'MemoryPressure', ...never, lastHeartbeatTime: LONG_AGO, lastTransitionTime: at },
      { type: 'PIDPressure', ...never, lastHeartbeatTime: LONG_AGO, lastTransitionTime: at },
    ]);
    expect(second.observedReady.status).toBe('True');
    expect(second.currentReady?.status).toBe('Unknown');
  });

  it('Node created long time ago, with status updated recently: nothing written', () => {
    const node = testNode('node0', LONG_AGO, [cond('Ready', 'True', iso(FAKE_NOW))]);
    const later = { conditions: [cond('Ready', 'True', iso(FAKE_NOW + 40_000), iso(FAKE_NOW))] };
    const { first, second } = twoPasses(node, 60_000, undefined, later);
    expect(first.statusUpdate).toBeUndefined();
    expect(second.statusUpdate).toBeUndefined();
  });
});

describe('TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease', () => {
  const renewed = (ms: number) => iso(ms).replace('Z', '.000000Z');
  const healthy = (hb: string) => [cond('Ready', 'True', hb), cond('DiskPressure', 'False', hb)];

  it('Node created long time ago, no status, no lease: never posted', () => {
    const { first } = twoPasses(testNode('node0', LONG_AGO), 0);
    expect(first.statusUpdate?.conditions?.[0]).toMatchObject({ type: 'Ready', reason: 'NodeStatusNeverUpdated' });
  });

  it('Node created long time ago, no status, with lease renewed: a Lease alone keeps it from Unknown', () => {
    const { first, second } = twoPasses(testNode('node0', LONG_AGO), 60_000, [
      renewed(FAKE_NOW),
      renewed(FAKE_NOW + 60_000),
    ]);
    // The first pass still writes never-posted conditions (startup grace counted from creation) only
    // without a lease; with one the probe time is now.
    expect(first.statusUpdate).toBeUndefined();
    expect(second.statusUpdate).toBeUndefined();
  });

  it('status stale beyond the grace period but lease renewed: no update', () => {
    const node = testNode('node0', LONG_AGO, healthy(iso(FAKE_NOW)));
    const { second } = twoPasses(node, 60_000, [renewed(FAKE_NOW), renewed(FAKE_NOW + 50_000)]);
    expect(second.statusUpdate).toBeUndefined();
    expect(second.currentReady?.status).toBe('True');
  });

  it('status stale beyond the grace period and lease not renewed: Unknown', () => {
    const node = testNode('node0', LONG_AGO, healthy(iso(FAKE_NOW)));
    const { second } = twoPasses(node, 60_000, [renewed(FAKE_NOW), renewed(FAKE_NOW)]);
    expect(second.statusUpdate?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
  });

  it('status updated recently, lease not renewed: no update (either signal counts)', () => {
    const node = testNode('node0', LONG_AGO, healthy(iso(FAKE_NOW)));
    const later = { conditions: healthy(iso(FAKE_NOW + 50_000)) };
    const { second } = twoPasses(node, 60_000, [renewed(FAKE_NOW), renewed(FAKE_NOW)], later);
    expect(second.statusUpdate).toBeUndefined();
  });

  it('status already Unknown and lease not renewed: nothing written again', () => {
    const unknown = [cond('Ready', 'Unknown', STALE), cond('DiskPressure', 'Unknown', STALE)];
    const node = testNode('node0', LONG_AGO, [
      ...unknown,
      cond('MemoryPressure', 'Unknown', STALE),
      cond('PIDPressure', 'Unknown', STALE),
    ]);
    const { second } = twoPasses(node, 60_000, [renewed(FAKE_NOW), renewed(FAKE_NOW)]);
    expect(second.statusUpdate).toBeUndefined();
    expect(second.currentReady?.status).toBe('Unknown');
  });
});
