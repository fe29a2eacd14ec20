/**
 * PodTopologySpread's filter (upstream pkg/scheduler/framework/plugins/podtopologyspread
 * filtering.go, common.go): for each DoNotSchedule constraint, pods matching its selector in
 * the incoming pod's namespace are counted per domain (value of the topology key) over the
 * eligible nodes (those with every constraint's key and, by nodeAffinityPolicy Honor, matching
 * the pod's node affinity; nodeTaintsPolicy Honor also drops nodes with untolerated taints);
 * a node is refused when placing the pod there makes `count + self - global minimum` exceed
 * maxSkew (the minimum is 0 while fewer domains than minDomains exist).
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { LabelSelectorObject } from '../../api/label-selector.js';
import {
  anyTolerates,
  matchesRequiredNodeAffinity,
  refuse,
  selectorMatches,
  type FilterPlugin,
  type NodeInfo,
} from './framework.js';

type Constraint = NonNullable<NonNullable<Pod['spec']>['topologySpreadConstraints']>[number];

/** Upstream ErrReasonConstraintsNotMatch and ErrReasonNodeLabelNotMatch. */
export const ERR_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_NODE_LABEL_NOT_MATCH = `${ERR_CONSTRAINTS_NOT_MATCH} (missing required label)`;

/**
 * A constraint's selector with its matchLabelKeys merged in as `key In (pod's value)` (upstream
 * 1.33 mergeLabelSetWithSelector, done by the scheduler), or null (matches nothing).
 */
export function constraintSelector(c: Constraint, pod: Pod): LabelSelectorObject | null {
  if (!c.labelSelector) return null;
  const labels = pod.metadata.labels ?? {};
  const extra = (c.matchLabelKeys ?? [])
    .filter((k) => Object.prototype.hasOwnProperty.call(labels, k))
    .map((k) => ({ key: k, operator: 'In', values: [labels[k]] }));
  return { ...c.labelSelector, matchExpressions: [...(c.labelSelector.matchExpressions ?? []), ...extra] };
}

/** Whether `node` takes part in counting for `pod`'s constraints (upstream nodeInclusionPolicy checks). */
function eligible(pod: Pod, node: Node, constraints: readonly Constraint[]): boolean {
  const labels = node.metadata.labels ?? {};
  for (const c of constraints) {
    if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) return false;
    if ((c.nodeAffinityPolicy ?? 'Honor') === 'Honor' && !matchesRequiredNodeAffinity(pod, node)) return false;
    if (
      c.nodeTaintsPolicy === 'Honor' &&
      (node.spec?.taints ?? []).some(
        (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !anyTolerates(pod.spec?.tolerations, t),
      )
    )
      return false;
  }
  return true;
}

/** PodTopologySpread as a filter plugin (PreFilter counts per domain, Filter checks skew). */
export const podTopologySpread: FilterPlugin = {
  name: 'PodTopologySpread',
  prepare: (pod, cluster) => {
    const constraints = (pod.spec?.topologySpreadConstraints ?? []).filter(
      (c) => c.whenUnsatisfiable === 'DoNotSchedule',
    );
    if (!constraints.length) return () => null;
    const selectors = constraints.map((c) => constraintSelector(c, pod));
    const counts = constraints.map(() => new Map<string, number>());
    for (const info of cluster.nodes) {
      if (!eligible(pod, info.node, constraints)) continue;
      const labels = info.node.metadata.labels ?? {};
      constraints.forEach((c, i) => {
        const value = labels[c.topologyKey];
        const n = info.pods.filter(
          (p) =>
            !p.metadata.deletionTimestamp &&
            p.metadata.namespace === pod.metadata.namespace &&
            selectorMatches(selectors[i], p.metadata.labels),
        ).length;
        counts[i].set(value, (counts[i].get(value) ?? 0) + n);
      });
    }
    const minimum = constraints.map((c, i) =>
      counts[i].size < (c.minDomains ?? 1) ? 0 : Math.min(...counts[i].values()),
    );
    return (info: NodeInfo) => {
      const labels = info.node.metadata.labels ?? {};
      if (constraints.some((c) => !Object.prototype.hasOwnProperty.call(labels, c.topologyKey)))
        return refuse('PodTopologySpread', 'UnschedulableAndUnresolvable', ERR_NODE_LABEL_NOT_MATCH);
      for (const [i, c] of constraints.entries()) {
        const self = selectorMatches(selectors[i], pod.metadata.labels) ? 1 : 0;
        const min = Number.isFinite(minimum[i]) ? minimum[i] : 0;
        const skew = (counts[i].get(labels[c.topologyKey]) ?? 0) + self - min;
        if (skew > c.maxSkew) return refuse('PodTopologySpread', 'Unschedulable', ERR_CONSTRAINTS_NOT_MATCH);
      }
      return null;
    };
  },
};
