import { describe, expect, it } from 'vitest';
import { parseCidr, subnetAt } from './ipv4.js';
import { buildLease, buildNode, nodeConditions, nodeIdentity } from './node-status.js';
import { resolveOptions } from './options.js';
import { PodIpAllocator } from './pod-ips.js';

const opts = resolveOptions({ count: 3 });
const now = new Date('2026-01-01T00:00:00Z');

describe('simulated node identity and Node', () => {
  it('gives each node a name, an InternalIP and its own pod CIDR', () => {
    expect(nodeIdentity(opts, 0)).toEqual({ name: 'sim-node-0', internalIP: '172.18.0.2', podCIDR: '10.64.0.0/24' });
    expect(nodeIdentity(opts, 300)).toEqual({
      name: 'sim-node-300',
      internalIP: '172.18.1.46',
      podCIDR: '10.65.44.0/24',
    });
    const small = resolveOptions({ count: 1, clusterCidr: '10.244.0.0/23' });
    expect(() => nodeIdentity(small, 2)).toThrow(RangeError);
  });

  it('reports what a kubelet registers: labels, capacity, conditions, addresses, nodeInfo, pod CIDR', () => {
    const node = buildNode(opts, nodeIdentity(opts, 1), now);
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'sim-node-1',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'node.kubernetes.io/instance-type': 'sim.32xlarge',
      'sim.ck.io/simulated': 'true',
    });
    expect(node.spec).toEqual({ podCIDR: '10.64.1.0/24', podCIDRs: ['10.64.1.0/24'] });
    expect(node.status?.capacity).toMatchObject({
      cpu: '32',
      memory: '256Gi',
      pods: '110',
      'ephemeral-storage': '100Gi',
    });
    expect(node.status?.allocatable).toEqual(node.status?.capacity);
    expect(node.status?.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.3' },
      { type: 'Hostname', address: 'sim-node-1' },
    ]);
    expect(node.status?.nodeInfo).toMatchObject({
      agentVersion: 'v1.33.1',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    expect(node.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['NetworkUnavailable', 'False', 'RouteCreated'],
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ]);
  });

  it('moves the heartbeat but keeps the transition time of an unchanged condition', () => {
    const later = new Date('2026-01-01T00:05:00Z');
    const previous = [
      { type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' },
      { type: 'DiskPressure', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' },
    ];
    const conditions = nodeConditions(later, previous);
    const ready = conditions.find((c) => c.type === 'Ready');
    const disk = conditions.find((c) => c.type === 'DiskPressure');
    expect(ready).toMatchObject({
      lastHeartbeatTime: '2026-01-01T00:05:00Z',
      lastTransitionTime: '2025-12-31T00:00:00Z',
    });
    expect(disk).toMatchObject({ status: 'False', lastTransitionTime: '2026-01-01T00:05:00Z' });
  });

  it('builds the node Lease a kubelet keeps, owned by its Node', () => {
    const lease = buildLease(opts, 'sim-node-0', 'uid-0', now);
    expect(lease.metadata).toMatchObject({
      namespace: 'kube-node-lease',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'sim-node-0', uid: 'uid-0' }],
    });
    expect(lease.spec).toEqual({
      holderIdentity: 'sim-node-0',
      leaseDurationSeconds: 40,
      renewTime: '2026-01-01T00:00:00.000000Z',
    });
  });
});

describe('pod IPs', () => {
  it('hands out the lowest free address from the third on, keeps a reported one, reuses released ones', () => {
    const ips = new PodIpAllocator('10.64.0.0/24');
    expect(ips.assign('a')).toBe('10.64.0.2');
    expect(ips.assign('b', '10.64.0.9')).toBe('10.64.0.9');
    expect(ips.assign('c', '10.64.0.9')).toBe('10.64.0.3'); // taken: the lowest free instead
    expect(ips.assign('d', '10.99.0.1')).toBe('10.64.0.4'); // outside the range
    expect(ips.assign('a')).toBe('10.64.0.2');
    ips.release('a');
    expect(ips.assign('e')).toBe('10.64.0.2');
  });

  it('runs out after the last address below broadcast', () => {
    const ips = new PodIpAllocator('10.0.0.0/30');
    expect(ips.assign('a')).toBe('10.0.0.2');
    expect(() => ips.assign('b')).toThrow(RangeError);
  });

  it('cuts subnets of a CIDR', () => {
    expect(subnetAt(parseCidr('10.64.0.0/10'), 24, 16383)).toBe('10.127.255.0/24');
    expect(() => subnetAt(parseCidr('10.64.0.0/10'), 24, 16384)).toThrow(RangeError);
    expect(() => parseCidr('10.300.0.0/8')).toThrow(Error);
  });
});
