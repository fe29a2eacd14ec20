/**
 * TaintToleration, ported from upstream pkg/scheduler/framework/plugins/tainttoleration/
 * taint_toleration_test.go (TestTaintTolerationFilter, TestTaintTolerationScore); the numeric
 * Gt/Lt toleration cases belong to a later release and are left out, and upstream 1.33 names
 * the taint in the reason, as here. The last two filter cases are ours.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { node, run, tol, type Toleration } from './filters.fixture.js';
import { taintToleration } from './node-filters.js';
import { defaultNormalize, intolerablePreferNoSchedule } from './scores.js';

const tainted = (...t: Toleration[]) => node('nodeA', {}, { taints: t });

describe('TaintToleration filter (upstream TestTaintTolerationFilter)', () => {
  const cases: [string, Pod, Node, string | null][] = [
    [
      "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
      tol(),
      tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      '{dedicated: user1}',
    ],
    [
      'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
      tol({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      null,
    ],
    [
      "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      tol({ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      '{dedicated: user1}',
    ],
    [
      'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node',
      tol({ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      null,
    ],
    [
      'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
      tol(
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ),
      tainted(
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ),
      null,
    ],
    [
      "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      tol({ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      '{foo: bar}',
    ],
    [
      'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
      tol({ key: 'foo', operator: 'Equal', value: 'bar' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      null,
    ],
    [
      "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      tol({ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }),
      null,
    ],
    [
      'The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node',
      tol(),
      tainted({ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }),
      null,
    ],
    [
      'A NoExecute taint refuses a pod that does not tolerate it',
      tol(),
      tainted({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }),
      '{node.kubernetes.io/not-ready: }',
    ],
    [
      'An empty key with operator Exists tolerates every taint',
      tol({ operator: 'Exists' }),
      tainted({ key: 'a', value: 'b', effect: 'NoExecute' }, { key: 'c', effect: 'NoSchedule' }),
      null,
    ],
  ];
  it.each(cases)('%s', (_name, p, n, taint) => {
    const got = run(taintToleration, p, n);
    if (taint === null) expect(got).toBeNull();
    else
      expect(got).toEqual({
        plugin: 'TaintToleration',
        code: 'UnschedulableAndUnresolvable',
        reasons: [`node(s) had untolerated taint ${taint}`],
      });
  });
});

describe('TaintToleration score (upstream TestTaintTolerationScore)', () => {
  const cases: [string, Pod, Node[], number[]][] = [
    [
      'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
      tol({ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }),
      [
        tainted({ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }),
        tainted({ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }),
      ],
      [100, 0],
    ],
    [
      'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
      tol(
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
      ),
      [
        tainted(),
        tainted({ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }),
        tainted(
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ),
      ],
      [100, 100, 100],
    ],
    [
      'the more intolerable taints a node has, the lower score it gets.',
      tol({ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }),
      [
        tainted(),
        tainted({ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }),
        tainted(
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ),
      ],
      [100, 50, 0],
    ],
    [
      'only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function',
      tol(
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
      ),
      [
        tainted(),
        tainted({ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }),
        tainted(
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ),
      ],
      [100, 100, 0],
    ],
    [
      'Default behaviour No taints and tolerations, lands on node with no taints',
      tol(),
      [tainted(), tainted({ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' })],
      [100, 0],
    ],
  ];
  it.each(cases)('%s', (_name, p, nodes, want) => {
    const raw = nodes.map((n) => intolerablePreferNoSchedule(p, { node: n, pods: [] }));
    expect(defaultNormalize(raw, true)).toEqual(want);
  });
});
