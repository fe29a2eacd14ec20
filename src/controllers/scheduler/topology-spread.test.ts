/**
 * PodTopologySpread's filter, ported from upstream pkg/scheduler/framework/plugins/
 * podtopologyspread/filtering_test.go (TestSingleConstraint, the first cases of
 * TestMultipleConstraints): the expected status code per node for each spread.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClusterView, FilterCode } from './framework.js';
import { podTopologySpread } from './topology-spread.js';

type Constraint = [maxSkew: number, key: string, existsLabel: string];
/** A pod labelled `label` (empty value) with DoNotSchedule constraints selecting `Exists(existsLabel)`. */
const incoming = (label: string, constraints: Constraint[], nodeAffinityIn?: string[]): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: '', labels: { [label]: '' } },
    spec: {
      containers: [],
      topologySpreadConstraints: constraints.map(([maxSkew, topologyKey, l]) => ({
        maxSkew,
        topologyKey,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchExpressions: [{ key: l, operator: 'Exists' }] },
      })),
      affinity: nodeAffinityIn && {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'node', operator: 'In', values: nodeAffinityIn }] }],
          },
        },
      },
    },
  }) as Pod;
/** `name@node` with label foo; `ns:` prefix for a namespace; `!` suffix for terminating. */
const existing = (spec: string): Pod => {
  const [nsPart, rest] = spec.includes(':') ? spec.split(':') : ['', spec];
  const terminating = rest.endsWith('!');
  const [name, nodeName] = rest.replace('!', '').split('@');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: nsPart,
      labels: { foo: '' },
      deletionTimestamp: terminating ? '2026-01-01T00:00:00Z' : undefined,
    },
    spec: { containers: [], nodeName },
  } as Pod;
};
/** `node-a` in zone1 (`node-a/zone1`), with the `node` label; `-` for no zone; `zon=` for a typo. */
const node = (spec: string): Node => {
  const [name, zone] = spec.split('/');
  const labels: Record<string, string> = { node: name };
  if (zone?.startsWith('zon=')) labels.zon = zone.slice(4);
  else if (zone && zone !== '-') labels.zone = zone;
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } } as Node;
};

const S = 'Success';
const U: FilterCode = 'Unschedulable';
const UU: FilterCode = 'UnschedulableAndUnresolvable';
const four = ['node-a/zone1', 'node-b/zone1', 'node-x/zone2', 'node-y/zone2'];
const spread2103 = ['p-a1@node-a', 'p-a2@node-a', 'p-b1@node-b', 'p-y1@node-y', 'p-y2@node-y', 'p-y3@node-y'];

const cases: [string, Pod, string[], string[], string[]][] = [
  ['no existing pods', incoming('foo', [[1, 'zone', 'foo']]), four, [], [S, S, S, S]],
  [
    "no existing pods, incoming pod doesn't match itself",
    incoming('foo', [[1, 'zone', 'bar']]),
    four,
    [],
    [S, S, S, S],
  ],
  [
    'existing pods in a different namespace do not count',
    incoming('foo', [[1, 'zone', 'foo']]),
    four,
    ['ns1:p-a1@node-a', 'ns2:p-b1@node-a', 'p-x1@node-x', 'p-y1@node-y'],
    [S, S, U, U],
  ],
  [
    'pods spread across zones as 3/3, all nodes fit',
    incoming('foo', [[1, 'zone', 'foo']]),
    four,
    spread2103,
    [S, S, S, S],
  ],
  [
    "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
    incoming('foo', [[1, 'zone', 'foo']]),
    ['node-a/zone1', 'node-b/zon=zone1', 'node-x/zone2', 'node-y/zone2'],
    ['p-a1@node-a', 'p-b1@node-b', 'p-x1@node-x', 'p-y1@node-y'],
    [S, UU, U, U],
  ],
  [
    "pod cannot be scheduled as all nodes don't have label 'rack'",
    incoming('foo', [[1, 'rack', 'foo']]),
    ['node-a/zone1', 'node-x/zone2'],
    [],
    [UU, UU],
  ],
  [
    'pods spread across nodes as 2/1/0/3, only node-x fits',
    incoming('foo', [[1, 'node', 'foo']]),
    four,
    spread2103,
    [U, U, S, U],
  ],
  [
    'pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit',
    incoming('foo', [[2, 'node', 'foo']]),
    four,
    spread2103,
    [U, S, S, U],
  ],
  [
    "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
    incoming('bar', [[1, 'node', 'foo']]),
    four,
    spread2103,
    [U, S, S, U],
  ],
  [
    'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
    incoming('foo', [[1, 'node', 'foo']], ['node-a', 'node-y']),
    four,
    spread2103,
    [S, S, S, U],
  ],
  [
    'terminating Pods should be excluded',
    incoming('foo', [[1, 'node', 'foo']]),
    ['node-a/-', 'node-b/-'],
    ['p-a@node-a!', 'p-b@node-b'],
    [S, U],
  ],
  [
    'two Constraints on zone and node, spreads = [3/3, 2/1/0/3]',
    incoming('foo', [
      [1, 'zone', 'foo'],
      [1, 'node', 'foo'],
    ]),
    four,
    spread2103,
    [U, U, S, U],
  ],
  [
    'two Constraints on zone and node, spreads = [3/4, 2/1/0/4]',
    incoming('foo', [
      [1, 'zone', 'foo'],
      [1, 'node', 'foo'],
    ]),
    four,
    [...spread2103, 'p-y4@node-y'],
    [U, U, U, U],
  ],
];

describe('PodTopologySpread filter (upstream TestSingleConstraint, TestMultipleConstraints)', () => {
  it.each(cases)('%s', (_name, p, nodeSpecs, podSpecs, want) => {
    const pods = podSpecs.map(existing);
    const nodes = nodeSpecs.map(node).map((n) => ({
      node: n,
      pods: pods.filter((x) => x.spec?.nodeName === n.metadata.name),
    }));
    const cluster: ClusterView = { nodes, namespaceLabels: () => undefined };
    const check = podTopologySpread.prepare(p, cluster);
    expect(nodes.map((info) => check(info)?.code ?? S)).toEqual(want);
  });
});
