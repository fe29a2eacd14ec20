/**
 * Per-node filters, ported from upstream pkg/scheduler/framework/plugins:
 * nodeaffinity/node_affinity_test.go (TestNodeAffinity's filter cases),
 * nodeunschedulable/node_unschedulable_test.go and nodeports/node_ports_test.go (TestNodePorts).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { node, pod, run, tol } from './filters.fixture.js';
import { nodeAffinity, nodePorts, nodeUnschedulable } from './node-filters.js';

const expr = (key: string, operator: string, values?: string[]) => ({ key, operator, values });
type Term = { matchExpressions?: ReturnType<typeof expr>[]; matchFields?: ReturnType<typeof expr>[] };
const affinity = (terms: Term[], nodeSelector?: Record<string, string>) =>
  pod({
    nodeSelector,
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
  });

describe('NodeAffinity filter (upstream TestNodeAffinity)', () => {
  const cases: [string, Pod, Record<string, string>, string, boolean][] = [
    ['missing labels', pod({ nodeSelector: { foo: 'bar' } }), {}, 'node1', false],
    ['same labels', pod({ nodeSelector: { foo: 'bar' } }), { foo: 'bar' }, 'node1', true],
    ['node labels are superset', pod({ nodeSelector: { foo: 'bar' } }), { foo: 'bar', baz: 'blah' }, 'node1', true],
    ['node labels are subset', pod({ nodeSelector: { foo: 'bar', baz: 'blah' } }), { foo: 'bar' }, 'node1', false],
    [
      'Pod with matchExpressions using In operator that matches the existing node',
      affinity([{ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }]),
      { foo: 'bar' },
      'node1',
      true,
    ],
    [
      'Pod with matchExpressions using Gt operator that matches the existing node',
      affinity([{ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }]),
      { 'kernel-version': '0206' },
      'node1',
      true,
    ],
    [
      'Pod with matchExpressions using NotIn operator that matches the existing node',
      affinity([{ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }]),
      { 'mem-type': 'DDR3' },
      'node1',
      true,
    ],
    [
      'Pod with matchExpressions using Exists operator that matches the existing node',
      affinity([{ matchExpressions: [expr('GPU', 'Exists')] }]),
      { GPU: 'NVIDIA-GRID-K1' },
      'node1',
      true,
    ],
    [
      "Pod with affinity that don't match node's labels won't schedule onto the node",
      affinity([{ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }]),
      { foo: 'bar' },
      'node1',
      false,
    ],
    [
      "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
      affinity([{ matchExpressions: [] }]),
      { foo: 'bar' },
      'node1',
      false,
    ],
    ['Pod with no Affinity will schedule onto a node', pod(), { foo: 'bar' }, 'node1', true],
    [
      'Pod with Affinity but nil NodeSelector will schedule onto a node',
      pod({ affinity: { nodeAffinity: {} } }),
      { foo: 'bar' },
      'node1',
      true,
    ],
    [
      'Pod with multiple matchExpressions ANDed that matches the existing node',
      affinity([{ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }]),
      { GPU: 'NVIDIA-GRID-K1' },
      'node1',
      true,
    ],
    [
      "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
      affinity([{ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }]),
      { GPU: 'NVIDIA-GRID-K1' },
      'node1',
      false,
    ],
    [
      "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      affinity([
        { matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] },
        { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] },
      ]),
      { foo: 'bar' },
      'node1',
      true,
    ],
    [
      'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node',
      affinity([{ matchExpressions: [expr('foo', 'Exists')] }], { foo: 'bar' }),
      { foo: 'bar' },
      'node1',
      true,
    ],
    [
      "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
      affinity([{ matchExpressions: [expr('foo', 'Exists')] }], { foo: 'bar' }),
      { foo: 'barrrrrr' },
      'node1',
      false,
    ],
    [
      "Pod with an invalid value in Affinity term won't be scheduled onto the node",
      affinity([{ matchExpressions: [expr('foo', 'NotIn', ['invalid value: ___@#$%^'])] }]),
      { foo: 'bar' },
      'node1',
      false,
    ],
    [
      'Pod with matchFields using In operator that matches the existing node',
      affinity([{ matchFields: [expr('metadata.name', 'In', ['node1'])] }]),
      {},
      'node1',
      true,
    ],
    [
      'Pod with matchFields using In operator that does not match the existing node',
      affinity([{ matchFields: [expr('metadata.name', 'In', ['node1'])] }]),
      {},
      'node2',
      false,
    ],
    [
      'Pod with two terms: matchFields does not match, but matchExpressions matches',
      affinity([
        { matchFields: [expr('metadata.name', 'In', ['node1']), expr('metadata.name', 'In', ['node2'])] },
        { matchExpressions: [expr('foo', 'In', ['bar'])] },
      ]),
      { foo: 'bar' },
      'node2',
      true,
    ],
    [
      'Pod with one term: matchFields does not match, but matchExpressions matches',
      affinity([
        { matchFields: [expr('metadata.name', 'In', ['node1'])], matchExpressions: [expr('foo', 'In', ['bar'])] },
      ]),
      { foo: 'bar' },
      'node2',
      false,
    ],
    [
      'Pod with one term: both matchFields and matchExpressions match',
      affinity([
        { matchFields: [expr('metadata.name', 'In', ['node1'])], matchExpressions: [expr('foo', 'In', ['bar'])] },
      ]),
      { foo: 'bar' },
      'node1',
      true,
    ],
  ];
  it.each(cases)('%s', (_name, p, labels, name, fits) => {
    const got = run(nodeAffinity, p, node(name, labels));
    if (fits) expect(got).toBeNull();
    else
      expect(got).toEqual({
        plugin: 'NodeAffinity',
        code: 'UnschedulableAndUnresolvable',
        reasons: ["node(s) didn't match Pod's node affinity/selector"],
      });
  });
});

describe('NodeUnschedulable (upstream TestNodeUnschedulable)', () => {
  const cordoned = node('n', {}, { unschedulable: true });
  const tolerant = tol({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' });
  it.each([
    ['Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)', pod(), cordoned, false],
    ['Schedule pod to normal node', pod(), node('n', {}, { unschedulable: false }), true],
    ['Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)', tolerant, cordoned, true],
  ] as const)('%s', (_name, p, n, fits) => {
    const got = run(nodeUnschedulable, p, n);
    expect(got === null).toBe(fits);
    if (!fits) expect(got?.reasons).toEqual(['node(s) were unschedulable']);
  });
});

describe('NodePorts (upstream TestNodePorts)', () => {
  const withPorts = (...ports: string[]) =>
    pod({
      containers: [
        {
          name: 'c',
          image: 'i',
          ports: ports.map((p) => {
            const [proto, ip, port] = p.split('/');
            return { containerPort: Number(port), hostPort: Number(port), protocol: proto, hostIP: ip };
          }),
        },
      ],
    });
  it.each([
    ['nothing running', withPorts('UDP/127.0.0.1/8080'), [], true],
    ['other port', withPorts('UDP/127.0.0.1/8080'), [withPorts('UDP/127.0.0.1/9090')], true],
    ['same udp port', withPorts('UDP/127.0.0.1/8080'), [withPorts('UDP/127.0.0.1/8080')], false],
    ['same tcp port', withPorts('TCP/127.0.0.1/8080'), [withPorts('TCP/127.0.0.1/8080')], false],
    ['different host ip', withPorts('TCP/127.0.0.1/8080'), [withPorts('TCP/127.0.0.2/8080')], true],
    ['different protocol', withPorts('UDP/127.0.0.1/8080'), [withPorts('TCP/127.0.0.1/8080')], true],
    [
      'second udp port conflict',
      withPorts('UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'),
      [withPorts('UDP/127.0.0.1/8080')],
      false,
    ],
    [
      'first tcp port conflict',
      withPorts('TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'),
      [withPorts('TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081')],
      false,
    ],
    [
      'first tcp port conflict due to 0.0.0.0 hostIP',
      withPorts('TCP/0.0.0.0/8001'),
      [withPorts('TCP/127.0.0.1/8001')],
      false,
    ],
    [
      'TCP hostPort conflict due to 0.0.0.0 hostIP',
      withPorts('TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'),
      [withPorts('TCP/127.0.0.1/8001')],
      false,
    ],
    [
      'second tcp port conflict to 0.0.0.0 hostIP',
      withPorts('TCP/127.0.0.1/8001'),
      [withPorts('TCP/0.0.0.0/8001')],
      false,
    ],
    ['second different protocol', withPorts('UDP/127.0.0.1/8001'), [withPorts('TCP/0.0.0.0/8001')], true],
    [
      'UDP hostPort conflict due to 0.0.0.0 hostIP',
      withPorts('UDP/127.0.0.1/8001'),
      [withPorts('TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001')],
      false,
    ],
  ] as const)('%s', (_name, p, existing, fits) => {
    const got = run(nodePorts, p, node('n'), [...existing]);
    expect(got === null).toBe(fits);
    if (!fits)
      expect(got).toMatchObject({
        code: 'Unschedulable',
        reasons: ["node(s) didn't have free ports for the requested pod ports"],
      });
  });
});
