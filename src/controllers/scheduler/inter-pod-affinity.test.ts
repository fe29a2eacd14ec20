/**
 * InterPodAffinity's filter, ported from upstream pkg/scheduler/framework/plugins/
 * interpodaffinity/filtering_test.go TestRequiredAffinitySingleNode: one node (machine1, labels
 * region=r1, zone=z11), pods already placed, the incoming pod's terms; the reasons are 1.33's
 * (one reason per refusal).
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClusterView, NodeInfo } from './framework.js';
import { ERR_AFFINITY, ERR_ANTI_AFFINITY, ERR_EXISTING_ANTI_AFFINITY, interPodAffinity } from './inter-pod-affinity.js';

type Expr = { key: string; operator: string; values?: string[] };
type Term = { labelSelector?: { matchExpressions: Expr[] }; topologyKey?: string; namespaces?: string[] };
const term = (topologyKey: string | undefined, ...matchExpressions: Expr[]): Term => ({
  labelSelector: { matchExpressions },
  topologyKey,
});
const In = (key: string, ...values: string[]): Expr => ({ key, operator: 'In', values });
const NotIn = (key: string, ...values: string[]): Expr => ({ key, operator: 'NotIn', values });
const Exists = (key: string): Expr => ({ key, operator: 'Exists' });
const DoesNotExist = (key: string): Expr => ({ key, operator: 'DoesNotExist' });

/** Upstream createPodWithAffinityTerms. */
const withTerms = (
  namespace: string,
  nodeName: string,
  labels: Record<string, string>,
  affinity: Term[] | null,
  anti: Term[] | null,
): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace, labels },
    spec: {
      containers: [],
      nodeName: nodeName || undefined,
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity ?? undefined },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti ?? undefined },
      },
    },
  }) as Pod;
const plain = (labels: Record<string, string>, namespace = '', nodeName = 'machine1'): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'e', namespace, labels },
    spec: { containers: [], nodeName },
  }) as Pod;

const podLabel = { service: 'securityscan' };
const podLabel2 = { security: 'S1' };
const node1 = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'machine1', labels: { region: 'r1', zone: 'z11' } },
} as Node;

const run = (p: Pod, pods: Pod[]) => {
  const info: NodeInfo = { node: node1, pods: pods.filter((x) => x.spec?.nodeName === 'machine1') };
  const cluster: ClusterView = { nodes: [info], namespaceLabels: () => undefined };
  return interPodAffinity.prepare(p, cluster)(info);
};

const cases: [string, Pod, Pod[], null | [string, string]][] = [
  [
    'A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods',
    plain({}, '', ''),
    [],
    null,
  ],
  [
    'satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod',
    withTerms('', '', podLabel2, [term('region', In('service', 'securityscan', 'value2'))], null),
    [plain(podLabel)],
    null,
  ],
  [
    'satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod',
    withTerms('', '', podLabel2, [term('region', NotIn('service', 'securityscan3', 'value3'))], null),
    [plain(podLabel)],
    null,
  ],
  [
    'Does not satisfy the PodAffinity with labelSelector because of diff Namespace',
    withTerms(
      '',
      '',
      podLabel2,
      [{ ...term(undefined, In('service', 'securityscan', 'value2')), namespaces: ['DiffNameSpace'] }],
      null,
    ),
    [plain(podLabel, 'ns')],
    ['UnschedulableAndUnresolvable', ERR_AFFINITY],
  ],
  [
    "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
    withTerms('', '', podLabel, [term(undefined, In('service', 'antivirusscan', 'value2'))], null),
    [plain(podLabel)],
    ['UnschedulableAndUnresolvable', ERR_AFFINITY],
  ],
  [
    'satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution',
    withTerms(
      '',
      '',
      podLabel2,
      [
        term('region', Exists('service'), DoesNotExist('wrongkey')),
        term('region', In('service', 'securityscan'), NotIn('service', 'WrongValue')),
      ],
      null,
    ),
    [plain(podLabel)],
    null,
  ],
  [
    "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
    withTerms(
      '',
      '',
      podLabel2,
      [
        term('region', Exists('service'), DoesNotExist('wrongkey')),
        term('region', In('service', 'securityscan2'), NotIn('service', 'WrongValue')),
      ],
      null,
    ),
    [plain(podLabel)],
    ['UnschedulableAndUnresolvable', ERR_AFFINITY],
  ],
  [
    'satisfies the PodAffinity and PodAntiAffinity with the existing pod',
    withTerms(
      '',
      '',
      podLabel2,
      [term('region', In('service', 'securityscan', 'value2'))],
      [term('node', In('service', 'antivirusscan', 'value2'))],
    ),
    [plain(podLabel)],
    null,
  ],
  [
    'satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod',
    withTerms(
      '',
      '',
      podLabel2,
      [term('region', In('service', 'securityscan', 'value2'))],
      [term('node', In('service', 'antivirusscan', 'value2'))],
    ),
    [withTerms('', 'machine1', podLabel, null, [term('node', In('service', 'antivirusscan', 'value2'))])],
    null,
  ],
  [
    "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
    withTerms(
      '',
      '',
      podLabel2,
      [term('region', In('service', 'securityscan', 'value2'))],
      [term('zone', In('service', 'securityscan', 'value2'))],
    ),
    [plain(podLabel)],
    ['Unschedulable', ERR_ANTI_AFFINITY],
  ],
  [
    "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
    withTerms(
      '',
      '',
      podLabel,
      [term('region', In('service', 'securityscan', 'value2'))],
      [term('node', In('service', 'antivirusscan', 'value2'))],
    ),
    [withTerms('', 'machine1', podLabel, null, [term('zone', In('service', 'securityscan', 'value2'))])],
    ['Unschedulable', ERR_EXISTING_ANTI_AFFINITY],
  ],
  [
    'pod matches its own Label in PodAffinity and that matches the existing pod Labels',
    withTerms('', '', podLabel, [term('region', NotIn('service', 'securityscan', 'value2'))], null),
    [plain(podLabel, '', 'machine2')],
    ['UnschedulableAndUnresolvable', ERR_AFFINITY],
  ],
  [
    "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
    plain(podLabel, '', ''),
    [withTerms('', 'machine1', podLabel, null, [term('zone', In('service', 'securityscan', 'value2'))])],
    ['Unschedulable', ERR_EXISTING_ANTI_AFFINITY],
  ],
  [
    'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod',
    plain(podLabel, '', ''),
    [withTerms('', 'machine1', podLabel, null, [term('zone', NotIn('service', 'securityscan', 'value2'))])],
    null,
  ],
  [
    "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
    withTerms('', '', podLabel, null, [term('region', Exists('service')), term('region', Exists('security'))]),
    [withTerms('', 'machine1', podLabel2, null, [term('zone', Exists('security'))])],
    ['Unschedulable', ERR_ANTI_AFFINITY],
  ],
  [
    'PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms',
    withTerms('', '', podLabel, null, [term('zone', Exists('service')), term('zone', Exists('security'))]),
    [withTerms('', 'machine1', podLabel2, null, [term('zone', Exists('security'))])],
    ['Unschedulable', ERR_ANTI_AFFINITY],
  ],
  [
    'first pod of a group with affinity to itself may land where the topology exists',
    withTerms('', '', podLabel, [term('region', In('service', 'securityscan'))], null),
    [],
    null,
  ],
  [
    'first pod of a group still needs the topology label on the node',
    withTerms('', '', podLabel, [term('rack', In('service', 'securityscan'))], null),
    [],
    ['UnschedulableAndUnresolvable', ERR_AFFINITY],
  ],
];

describe('InterPodAffinity filter (upstream TestRequiredAffinitySingleNode)', () => {
  it.each(cases)('%s', (_name, p, pods, want) => {
    const got = run(p, pods);
    if (!want) expect(got).toBeNull();
    else expect(got).toEqual({ plugin: 'InterPodAffinity', code: want[0], reasons: [want[1]] });
  });
});
