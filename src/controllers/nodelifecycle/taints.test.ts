/**
 * Upstream 1.33 node_lifecycle_controller_test.go TestTaintsNodeByCondition (the NoSchedule
 * taints of the conditions, 5 cases) ported to the NoSchedule pass, plus the unschedulable taint
 * (kubectl cordon), leaving taints this controller does not manage alone, and the beta labels
 * reconciled (reconcileNodeLabels).
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { cond } from './lifecycle.fixture.js';
import { labelsToReconcile } from './node-labels.js';
import { noScheduleTaintingPass, type Taint } from './taints.js';

const NOW = new Date('2017-01-01T12:00:00Z');
const HB = '2015-01-01T12:00:00Z';
const noSchedule = (key: string): Taint => ({ key: `node.kubernetes.io/${key}`, effect: 'NoSchedule' });

const node = (conditions: [string, string][], spec: Node['spec'] = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node0' },
  spec,
  status: { conditions: conditions.map(([type, status]) => cond(type, status, HB)) },
});

/** The taints after the pass (keys and effects), as upstream checks them. */
const after = (n: Node) =>
  (noScheduleTaintingPass(n, NOW) ?? n.spec?.taints ?? []).map(({ key, effect }) => ({ key, effect }));

describe('TestTaintsNodeByCondition', () => {
  const cases: [string, [string, string][], Taint[]][] = [
    [
      'NetworkUnavailable is true',
      [
        ['Ready', 'True'],
        ['NetworkUnavailable', 'True'],
      ],
      [noSchedule('network-unavailable')],
    ],
    [
      'NetworkUnavailable and MemoryPressure are true',
      [
        ['Ready', 'True'],
        ['NetworkUnavailable', 'True'],
        ['MemoryPressure', 'True'],
      ],
      [noSchedule('network-unavailable'), noSchedule('memory-pressure')],
    ],
    [
      'NetworkUnavailable is true, MemoryPressure is unknown',
      [
        ['Ready', 'True'],
        ['NetworkUnavailable', 'True'],
        ['MemoryPressure', 'Unknown'],
      ],
      [noSchedule('network-unavailable')],
    ],
    ['Ready is false', [['Ready', 'False']], [noSchedule('not-ready')]],
    ['Ready is unknown', [['Ready', 'Unknown']], [noSchedule('unreachable')]],
  ];
  it.each(cases)('%s', (_d, conditions, want) => expect(after(node(conditions))).toEqual(want));
});

describe('the NoSchedule pass', () => {
  it('taints a cordoned node unschedulable, and untaints it when uncordoned', () => {
    const cordoned = node([['Ready', 'True']], { unschedulable: true });
    const taints = noScheduleTaintingPass(cordoned, NOW);
    expect(taints).toEqual([{ ...noSchedule('unschedulable'), timeAdded: '2017-01-01T12:00:00Z' }]);
    expect(noScheduleTaintingPass(node([['Ready', 'True']], { taints }), NOW)).toEqual([]);
  });

  it('swaps pressure taints as conditions change and keeps taints it does not manage', () => {
    const own: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    const exec: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
    const n = node(
      [
        ['Ready', 'True'],
        ['DiskPressure', 'False'],
        ['PIDPressure', 'True'],
      ],
      {
        taints: [own, exec, noSchedule('disk-pressure')],
      },
    );
    expect(after(n)).toEqual([own, exec, noSchedule('pid-pressure')].map(({ key, effect }) => ({ key, effect })));
  });

  it('writes nothing when the taints are right', () => {
    expect(noScheduleTaintingPass(node([['Ready', 'True']]), NOW)).toBeUndefined();
  });
});

describe('reconcileNodeLabels', () => {
  it('makes the beta OS and arch labels follow the stable ones', () => {
    expect(labelsToReconcile({ 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' })).toEqual({
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
    });
    expect(labelsToReconcile({ 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'windows' })).toEqual({
      'beta.kubernetes.io/os': 'linux',
    });
    expect(labelsToReconcile({ 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/os': 'linux' })).toEqual({});
    expect(labelsToReconcile(undefined)).toEqual({});
  });
});
