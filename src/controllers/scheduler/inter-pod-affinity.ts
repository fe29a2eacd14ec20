/**
 * InterPodAffinity's filter (upstream pkg/scheduler/framework/plugins/interpodaffinity
 * filtering.go): the incoming pod's required affinity and anti-affinity terms, and the required
 * anti-affinity terms of the pods already placed, counted per topology pair (node label key and
 * value), then checked against each node's labels.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  podsWithAffinity,
  refuse,
  selectorMatches,
  type ClusterView,
  type FilterPlugin,
  type NodeInfo,
} from './framework.js';

type PodAffinityTerm = NonNullable<
  NonNullable<
    NonNullable<NonNullable<Pod['spec']>['affinity']>['podAffinity']
  >['requiredDuringSchedulingIgnoredDuringExecution']
>[number];

/** Upstream's reason texts. */
export const ERR_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";

/**
 * Whether `target` is one of the pods `term` (declared by `owner`) selects (upstream
 * AffinityTerm.Matches): its namespace is listed, or selected by namespaceSelector, or is the
 * owner's when neither is given; and its labels match labelSelector.
 */
export function termSelects(term: PodAffinityTerm, owner: Pod, target: Pod, cluster: ClusterView): boolean {
  const ns = target.metadata.namespace ?? '';
  const listed = term.namespaces ?? [];
  const inNamespace =
    listed.includes(ns) ||
    (term.namespaceSelector
      ? selectorMatches(term.namespaceSelector, cluster.namespaceLabels(ns) ?? {})
      : !listed.length && ns === owner.metadata.namespace);
  return inNamespace && selectorMatches(term.labelSelector, target.metadata.labels);
}

const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

/** Placed pods with the labels of their node: all of them, or only those declaring pod (anti-)affinity. */
function placed(cluster: ClusterView, all: boolean): { pod: Pod; labels: Record<string, string> }[] {
  const out: { pod: Pod; labels: Record<string, string> }[] = [];
  for (const info of cluster.nodes) {
    const labels = (info.node.metadata.labels ?? {}) as Record<string, string>;
    for (const pod of all ? info.pods : podsWithAffinity(info)) out.push({ pod, labels });
  }
  return out;
}

/** InterPodAffinity as a filter plugin (PreFilter counts, Filter checks). */
export const interPodAffinity: FilterPlugin = {
  name: 'InterPodAffinity',
  prepare: (pod, cluster) => {
    const affinity = pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    const anti = pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    const existing = new Map<string, number>();
    const affinityCounts = new Map<string, number>();
    const antiCounts = new Map<string, number>();
    const bump = (m: Map<string, number>, key: string, value: string | undefined) => {
      if (value !== undefined) m.set(pairKey(key, value), (m.get(pairKey(key, value)) ?? 0) + 1);
    };
    // Without terms of its own, only placed pods with anti-affinity matter.
    for (const { pod: other, labels } of placed(cluster, affinity.length > 0 || anti.length > 0)) {
      for (const term of other.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
        if (termSelects(term, other, pod, cluster))
          bump(existing, term.topologyKey ?? '', labels[term.topologyKey ?? '']);
      if (affinity.length && affinity.every((t) => termSelects(t, pod, other, cluster)))
        for (const t of affinity) bump(affinityCounts, t.topologyKey ?? '', labels[t.topologyKey ?? '']);
      for (const t of anti)
        if (termSelects(t, pod, other, cluster)) bump(antiCounts, t.topologyKey ?? '', labels[t.topologyKey ?? '']);
    }
    const selfMatch = affinity.every((t) => termSelects(t, pod, pod, cluster));
    return (info: NodeInfo) => {
      const labels = info.node.metadata.labels ?? {};
      const has = (k: string) => Object.prototype.hasOwnProperty.call(labels, k);
      if (existing.size && Object.entries(labels).some(([k, v]) => (existing.get(pairKey(k, v)) ?? 0) > 0))
        return refuse('InterPodAffinity', 'Unschedulable', ERR_EXISTING_ANTI_AFFINITY);
      for (const t of anti) {
        const key = t.topologyKey ?? '';
        if (has(key) && (antiCounts.get(pairKey(key, labels[key])) ?? 0) > 0)
          return refuse('InterPodAffinity', 'Unschedulable', ERR_ANTI_AFFINITY);
      }
      let podsExist = true;
      for (const t of affinity) {
        const key = t.topologyKey ?? '';
        if (!has(key)) return refuse('InterPodAffinity', 'UnschedulableAndUnresolvable', ERR_AFFINITY);
        if ((affinityCounts.get(pairKey(key, labels[key])) ?? 0) <= 0) podsExist = false;
      }
      // The first pod of a group with affinity to itself may go anywhere with the topologies.
      if (!podsExist && !(affinityCounts.size === 0 && selfMatch))
        return refuse('InterPodAffinity', 'UnschedulableAndUnresolvable', ERR_AFFINITY);
      return null;
    };
  },
};
