/**
 * The score plugins of upstream 1.33's default profile besides the resource ones
 * (pkg/scheduler/framework/plugins): TaintToleration (PreferNoSchedule taints), NodeAffinity
 * (preferred terms), InterPodAffinity (preferred terms of both sides) and PodTopologySpread
 * (ScheduleAnyway constraints), each normalized to 0-100 as upstream.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  anyTolerates,
  podsWithAffinity,
  selectorMatches,
  termMatches,
  type ClusterView,
  type NodeInfo,
} from './framework.js';
import { termSelects } from './inter-pod-affinity.js';
import { constraintSelector } from './topology-spread.js';

const MAX = 100;

/** Upstream helper.DefaultNormalizeScore: scale to 0-100 by the largest score, reversed if asked. */
export function defaultNormalize(scores: number[], reverse: boolean): number[] {
  const top = Math.max(0, ...scores);
  if (top === 0) return scores.map(() => (reverse ? MAX : 0));
  return scores.map((s) => {
    const v = Math.floor((MAX * s) / top);
    return reverse ? MAX - v : v;
  });
}

/** TaintToleration's raw score: how many PreferNoSchedule taints the pod does not tolerate (normalized reversed). */
export function intolerablePreferNoSchedule(pod: Pod, info: NodeInfo): number {
  const tolerations = (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  return (info.node.spec?.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule' && !anyTolerates(tolerations, t))
    .length;
}

/** NodeAffinity's raw score: the sum of the weights of the preferred terms the node matches. */
export function preferredNodeAffinity(pod: Pod, info: NodeInfo): number {
  let sum = 0;
  for (const t of pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    if (t.weight !== 0 && termMatches(t.preference, info.node)) sum += t.weight;
  return sum;
}

/**
 * InterPodAffinity's scores (scoring.go, hardPodAffinityWeight 1): weights of preferred
 * affinity (+) and anti-affinity (-) terms of the pod matching placed pods, and of placed pods'
 * terms (their required affinity with weight 1) matching the pod, summed per topology pair and
 * then per node over its labels; normalized min-max to 0-100.
 */
export function interPodAffinityScores(pod: Pod, nodes: readonly NodeInfo[], cluster: ClusterView): number[] {
  const pa = pod.spec?.affinity;
  const pairs = new Map<string, number>();
  const add = (key: string, labels: Record<string, string>, w: number) => {
    if (Object.prototype.hasOwnProperty.call(labels, key))
      pairs.set(`${key}\u0000${labels[key]}`, (pairs.get(`${key}\u0000${labels[key]}`) ?? 0) + w);
  };
  for (const info of cluster.nodes) {
    const labels = (info.node.metadata.labels ?? {}) as Record<string, string>;
    const own = Boolean(pa?.podAffinity || pa?.podAntiAffinity);
    for (const other of own ? info.pods : podsWithAffinity(info)) {
      for (const w of pa?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
        if (termSelects(w.podAffinityTerm, pod, other, cluster))
          add(w.podAffinityTerm.topologyKey ?? '', labels, w.weight);
      for (const w of pa?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
        if (termSelects(w.podAffinityTerm, pod, other, cluster))
          add(w.podAffinityTerm.topologyKey ?? '', labels, -w.weight);
      const oa = other.spec?.affinity;
      for (const t of oa?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
        if (termSelects(t, other, pod, cluster)) add(t.topologyKey ?? '', labels, 1);
      for (const w of oa?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
        if (termSelects(w.podAffinityTerm, other, pod, cluster))
          add(w.podAffinityTerm.topologyKey ?? '', labels, w.weight);
      for (const w of oa?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
        if (termSelects(w.podAffinityTerm, other, pod, cluster))
          add(w.podAffinityTerm.topologyKey ?? '', labels, -w.weight);
    }
  }
  const raw = nodes.map((info) =>
    Object.entries(info.node.metadata.labels ?? {}).reduce((s, [k, v]) => s + (pairs.get(`${k}\u0000${v}`) ?? 0), 0),
  );
  const min = Math.min(...raw);
  const diff = Math.max(...raw) - min;
  return raw.map((s) => (diff > 0 ? Math.trunc(MAX * ((s - min) / diff)) : 0));
}

/**
 * PodTopologySpread's scores for ScheduleAnyway constraints (scoring.go): per node the sum over
 * constraints of `count(domain) * log(domains + 2) + (maxSkew - 1)`, domains taken from the
 * feasible nodes; nodes lacking a key score 0; the rest normalized as `100 * (max + min - s) / max`.
 */
export function topologySpreadScores(pod: Pod, nodes: readonly NodeInfo[], cluster: ClusterView): number[] {
  const cs = (pod.spec?.topologySpreadConstraints ?? []).filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
  if (!cs.length) return nodes.map(() => 0);
  const hasAll = (info: NodeInfo) =>
    cs.every((c) => Object.prototype.hasOwnProperty.call(info.node.metadata.labels ?? {}, c.topologyKey));
  const counts = cs.map((c) => {
    const m = new Map<string, number>();
    for (const info of nodes) if (hasAll(info)) m.set(info.node.metadata.labels?.[c.topologyKey] ?? '', 0);
    return m;
  });
  const weights = counts.map((m) => Math.log(m.size + 2));
  for (const info of cluster.nodes) {
    if (!hasAll(info)) continue;
    cs.forEach((c, i) => {
      const value = info.node.metadata.labels?.[c.topologyKey] ?? '';
      if (!counts[i].has(value)) return;
      const sel = constraintSelector(c, pod);
      const n = info.pods.filter(
        (p) =>
          !p.metadata.deletionTimestamp &&
          p.metadata.namespace === pod.metadata.namespace &&
          selectorMatches(sel, p.metadata.labels),
      ).length;
      counts[i].set(value, (counts[i].get(value) ?? 0) + n);
    });
  }
  const raw = nodes.map((info) =>
    hasAll(info)
      ? Math.round(
          cs.reduce(
            (s, c, i) =>
              s + (counts[i].get(info.node.metadata.labels?.[c.topologyKey] ?? '') ?? 0) * weights[i] + (c.maxSkew - 1),
            0,
          ),
        )
      : null,
  );
  const present = raw.filter((s): s is number => s !== null);
  const min = Math.min(...present);
  const max = Math.max(...present);
  return raw.map((s) => (s === null ? 0 : max === 0 ? MAX : Math.trunc((MAX * (max + min - s)) / max)));
}
