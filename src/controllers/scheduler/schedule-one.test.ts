/**
 * One scheduling decision: upstream's FitError message with the DefaultPreemption suffix, the
 * no-nodes message, selectHost's reservoir sampling, and the resource scores (the "nothing
 * scheduled, resources requested, differently sized nodes" cases of upstream's
 * least_allocated_test.go and balanced_allocation_test.go).
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClusterView } from './framework.js';
import { balancedAllocationScore, leastAllocatedScore } from './resource-fit.js';
import { NO_NODES_MESSAGE, nodesAvailableMessage, schedulePod, selectHost } from './schedule-one.js';

const pod = (cpu: string, memory: string, spec: Record<string, unknown> = {}): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory } } }], ...spec },
  }) as Pod;
const node = (name: string, cpu: string, memory: string, spec: Record<string, unknown> = {}): Node =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec,
    status: { allocatable: { cpu, memory, pods: '110' } },
  }) as Node;
const cluster = (...nodes: Node[]): ClusterView => ({
  nodes: nodes.map((n) => ({ node: n, pods: [] })),
  namespaceLabels: () => undefined,
});
const controlPlane = { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] };

describe('FitError message', () => {
  it("is upstream's, with reasons counted and sorted and the preemption part", () => {
    const view = cluster(
      node('a', '1', '1Gi'),
      node('b', '8', '8Gi', controlPlane),
      node('c', '8', '8Gi', controlPlane),
    );
    const result = schedulePod(pod('2', '1Mi'), view);
    expect(result).toMatchObject({
      kind: 'unschedulable',
      message:
        '0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. ' +
        'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    });
  });

  it('names every insufficient resource of a node', () => {
    const result = schedulePod(pod('2', '2Gi'), cluster(node('a', '1', '1Gi'), node('b', '1', '1Gi')));
    expect(result).toMatchObject({
      message:
        '0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory. preemption: 0/2 nodes are available: ' +
        '2 No preemption victims found for incoming pod.',
    });
  });

  it('says a pod that may not preempt is not eligible', () => {
    const result = schedulePod(pod('2', '1Mi', { preemptionPolicy: 'Never' }), cluster(node('a', '1', '1Gi')));
    expect(result).toMatchObject({
      message: '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    });
  });

  it('is ErrNoNodesAvailable without nodes', () => {
    expect(schedulePod(pod('1', '1'), cluster())).toMatchObject({ kind: 'unschedulable', message: NO_NODES_MESSAGE });
    expect(NO_NODES_MESSAGE).toBe('no nodes available to schedule pods');
  });

  it('sorts the histogram as strings', () => {
    expect(nodesAvailableMessage(12, [...Array(10).fill('b'), 'a', 'c'])).toBe(
      '0/12 nodes are available: 1 a, 1 c, 10 b.',
    );
  });
});

describe('selectHost (reservoir sampling among the highest)', () => {
  it('takes the single highest score', () => {
    expect(selectHost([10, 30, 20], () => 0)).toBe(1);
  });

  it('replaces the pick with probability 1/n at the n-th tie', () => {
    // A draw of 0 always replaces (the last tie wins); a draw near 1 never does (the first wins).
    expect(selectHost([50, 10, 50, 50], () => 0)).toBe(3);
    expect(selectHost([50, 10, 50, 50], () => 0.99)).toBe(0);
    // 0.4 * 2 = 0 (replace at the 2nd tie), 0.4 * 3 = 1 (keep at the 3rd).
    expect(selectHost([50, 50, 50], () => 0.4)).toBe(1);
  });

  it('refuses an empty list', () => {
    expect(() => selectHost([])).toThrow('empty priorityList');
  });
});

describe('resource scores (upstream least_allocated_test.go, balanced_allocation_test.go)', () => {
  const p = pod('3000m', '5000');
  const n1 = { node: node('node1', '4000m', '10000'), pods: [] };
  const n2 = { node: node('node2', '6000m', '10000'), pods: [] };

  it('LeastAllocated: nothing scheduled, resources requested, differently sized nodes', () => {
    expect([leastAllocatedScore(p, n1), leastAllocatedScore(p, n2)]).toEqual([37, 50]);
  });

  it('BalancedAllocation: nothing scheduled, resources requested, differently sized nodes', () => {
    expect([balancedAllocationScore(p, n1), balancedAllocationScore(p, n2)]).toEqual([87, 100]);
  });

  it('chooses the node with the most room', () => {
    const result = schedulePod(pod('1', '1Gi'), cluster(node('small', '2', '4Gi'), node('big', '16', '64Gi')), () => 0);
    expect(result).toEqual({ kind: 'scheduled', node: 'big', feasible: 2 });
  });

  it('prefers nodes without untolerated PreferNoSchedule taints', () => {
    const soft = { taints: [{ key: 'k', value: 'v', effect: 'PreferNoSchedule' }] };
    const result = schedulePod(
      pod('1', '1Gi'),
      cluster(node('a', '8', '8Gi', soft), node('b', '8', '8Gi')),
      () => 0.99,
    );
    expect(result).toMatchObject({ kind: 'scheduled', node: 'b' });
  });
});
