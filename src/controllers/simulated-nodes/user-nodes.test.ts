/**
 * Nodes a user creates for the server to play, and the paused heartbeat (node-status.ts):
 * which Nodes are played, their identity, the status filled in around what the user gave, and
 * when a kubelet would write its status before the report period.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import {
  conditionsDrifted,
  heartbeatPaused,
  labelledSimulated,
  nodeConditions,
  userNodeIdentity,
  userNodeStatus,
} from './node-status.js';
import { resolveOptions } from './options.js';

const opts = resolveOptions({ count: 2 });
const now = new Date('2026-01-01T00:00:00Z');
const node = (extra: Partial<Node> = {}, labels: Record<string, string> = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'mine', labels },
  ...extra,
});

describe('user-created simulated nodes', () => {
  it('plays only Nodes labelled sim.ck.io/simulated "true"; paused only by the annotation value "paused"', () => {
    expect(labelledSimulated(node({}, { 'sim.ck.io/simulated': 'true' }))).toBe(true);
    expect(labelledSimulated(node({}, { 'sim.ck.io/simulated': 'false' }))).toBe(false);
    expect(labelledSimulated(node())).toBe(false);
    const annotated = (v: string) => ({ metadata: { annotations: { 'sim.ck.io/heartbeat': v } } });
    expect(heartbeatPaused(annotated('paused'))).toBe(true);
    expect(heartbeatPaused(annotated('running'))).toBe(false);
    expect(heartbeatPaused(undefined)).toBe(false);
  });

  it("takes the node's own InternalIP and pod CIDR, else its slot's", () => {
    expect(userNodeIdentity(opts, node(), 2)).toEqual({
      name: 'mine',
      internalIP: '172.18.0.4',
      podCIDR: '10.64.2.0/24',
    });
    const own = node({
      spec: { podCIDR: '10.1.0.0/24' },
      status: { addresses: [{ type: 'InternalIP', address: '192.168.1.9' }] },
    });
    expect(userNodeIdentity(opts, own, 2)).toEqual({ name: 'mine', internalIP: '192.168.1.9', podCIDR: '10.1.0.0/24' });
  });

  it("keeps what the user gave and fills in the rest, with the kubelet's conditions", () => {
    const id = userNodeIdentity(opts, node(), 2);
    const status = userNodeStatus(opts, id, now, {
      capacity: { cpu: '4', memory: '8Gi' },
      nodeInfo: { osImage: 'Custom OS', kernelVersion: '' },
    });
    expect(status.capacity).toEqual({ cpu: '4', memory: '8Gi' });
    expect(status.allocatable).toEqual({ cpu: '4', memory: '8Gi' });
    expect(status.nodeInfo).toMatchObject({
      osImage: 'Custom OS',
      kernelVersion: '6.8.0-sim',
      operatingSystem: 'linux',
    });
    expect(status.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.4' },
      { type: 'Hostname', address: 'mine' },
    ]);
    expect(status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    const empty = userNodeStatus(opts, id, now, undefined);
    expect(empty.capacity).toEqual(opts.capacity);
  });

  it('reports early when the stored conditions are not what the kubelet reports', () => {
    expect(conditionsDrifted({ conditions: nodeConditions(now) })).toBe(false);
    const unknown = nodeConditions(now).map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' } : c));
    expect(conditionsDrifted({ conditions: unknown })).toBe(true);
    expect(conditionsDrifted({})).toBe(true);
  });
});
