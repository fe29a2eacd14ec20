/**
 * The scheduling parts of a PodSpec (k8s.io/api core/v1 Affinity, NodeSelectorTerm,
 * PodAffinityTerm, Toleration, TopologySpreadConstraint), with the fields upstream has added up
 * to 1.33 (matchFields, namespaceSelector, matchLabelKeys, mismatchLabelKeys, the topology
 * spread constraints).
 */
import {
  atomic,
  int,
  labelSelector,
  list,
  mergedList,
  obj,
  oneOf,
  reqInt,
  reqList,
  reqObj,
  reqStr,
  str,
  strList,
  described,
} from './schema-kit.js';

const nodeSelectorRequirement = reqObj(
  described(
    {
      key: reqStr,
      operator: oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']).unwrap().unwrap(),
      values: strList,
    },
    {
      key: 'Label key the requirement applies to.',
      operator: 'In, NotIn, Exists, DoesNotExist, Gt or Lt.',
      values: 'Values for In and NotIn (non-empty), one integer for Gt and Lt, none for Exists and DoesNotExist.',
    },
  ),
);

/** NodeSelectorTerm (`+structType=atomic`). */
export const nodeSelectorTerm = atomic(
  reqObj({
    matchExpressions: list(nodeSelectorRequirement).describe('Requirements on node labels, all of which must hold.'),
    matchFields: list(nodeSelectorRequirement).describe(
      'Requirements on node fields (only metadata.name, with In or NotIn and one value), all of which must hold.',
    ),
  }),
);

/** NodeSelector (`+structType=atomic`): terms of which at least one must hold. */
export const nodeSelector = atomic(
  obj({ nodeSelectorTerms: reqList(nodeSelectorTerm).describe('Terms of which at least one must hold.') }),
);

const podAffinityTerm = reqObj(
  described(
    {
      labelSelector,
      matchLabelKeys: strList,
      mismatchLabelKeys: strList,
      namespaceSelector: labelSelector,
      namespaces: strList,
      topologyKey: str,
    },
    {
      labelSelector: 'Label query over the pods this term is about.',
      matchLabelKeys:
        'Pod label keys whose values, taken from the incoming pod, are added to labelSelector as `key in (value)`; needs labelSelector.',
      mismatchLabelKeys:
        'Pod label keys whose values, taken from the incoming pod, are added to labelSelector as `key notin (value)`; needs labelSelector.',
      namespaceSelector:
        'Label query over the namespaces the term applies to (with namespaces); an empty selector means every namespace.',
      namespaces:
        "Namespaces the label query applies to; the pod's own namespace when empty (and no namespaceSelector).",
      topologyKey:
        'Node label whose value defines co-location: pods are together when their nodes have the same value (for example kubernetes.io/hostname).',
    },
  ),
);
const weighted =
  "Weight (1-100) added to a node's score when the term holds; preferred terms guide, they do not require.";
const podAffinity = obj({
  preferredDuringSchedulingIgnoredDuringExecution: list(
    reqObj({ podAffinityTerm, weight: reqInt.describe(weighted) }),
  ).describe('Terms the scheduler prefers to satisfy, by weight.'),
  requiredDuringSchedulingIgnoredDuringExecution: list(podAffinityTerm).describe(
    'Terms that must hold when the pod is scheduled (not re-checked afterwards).',
  ),
});

/** Affinity. */
export const affinity = obj({
  nodeAffinity: obj({
    preferredDuringSchedulingIgnoredDuringExecution: list(
      reqObj({ preference: nodeSelectorTerm, weight: reqInt.describe(weighted) }),
    ).describe('Node selector terms the scheduler prefers to satisfy, by weight.'),
    requiredDuringSchedulingIgnoredDuringExecution: nodeSelector.describe(
      'Node requirements that must hold when the pod is scheduled (not re-checked afterwards).',
    ),
  }).describe('Rules on the labels of the nodes the pod may be scheduled on.'),
  podAffinity: podAffinity.describe('Rules co-locating the pod with other pods (same topology domain).'),
  podAntiAffinity: podAffinity.describe('Rules keeping the pod away from other pods (different topology domains).'),
}).describe('Scheduling constraints relating the pod to nodes and to other pods.');

/** Toleration list (`+listType=atomic`). */
export const tolerations = list(
  reqObj({
    effect: oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
    key: str,
    operator: oneOf(['Exists', 'Equal']),
    tolerationSeconds: int,
    value: str,
  }),
).describe('Taints the pod tolerates.');

/** TopologySpreadConstraint list, keyed by topologyKey and whenUnsatisfiable. */
export const topologySpreadConstraints = mergedList(
  reqObj({
    labelSelector: labelSelector.describe('Label query over the pods counted in each topology domain.'),
    matchLabelKeys: strList.describe(
      'Pod label keys whose values, taken from the incoming pod, are added to labelSelector; needs labelSelector.',
    ),
    maxSkew: reqInt.describe(
      'Most the number of matching pods may differ between two domains (DoNotSchedule), or what the scheduler tries to keep (ScheduleAnyway). At least 1.',
    ),
    minDomains: int.describe(
      'Minimum number of eligible domains; with fewer, the global minimum counts as 0. Only with whenUnsatisfiable DoNotSchedule.',
    ),
    nodeAffinityPolicy: str.describe(
      "Whether the pod's nodeAffinity and nodeSelector limit the nodes counted: Honor (the default) or Ignore.",
    ),
    nodeTaintsPolicy: str.describe(
      'Whether nodes whose taints the pod does not tolerate are counted: Ignore (the default) or Honor.',
    ),
    topologyKey: reqStr.describe(
      'Node label whose values define the topology domains (for example topology.kubernetes.io/zone).',
    ),
    whenUnsatisfiable: reqStr.describe(
      'What to do with a pod that would break the constraint: DoNotSchedule or ScheduleAnyway.',
    ),
  }),
  { key: 'topologyKey', keys: ['topologyKey', 'whenUnsatisfiable'] },
).describe('How pods spread across topology domains (zones, nodes, ...).');
