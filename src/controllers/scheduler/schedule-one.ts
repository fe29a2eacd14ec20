/**
 * One scheduling decision (upstream pkg/scheduler/schedule_one.go schedulePod,
 * findNodesThatFitPod, prioritizeNodes, selectHost; framework/types.go FitError; the default
 * profile's plugin order and score weights in apis/config/v1/default_plugins.go; the
 * DefaultPreemption PostFilter's message, framework/preemption/preemption.go): every node is
 * filtered (the first refusing plugin decides, as upstream), the feasible ones scored, and the
 * best chosen, ties broken by reservoir sampling.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClusterView, FilterPlugin, FilterStatus, NodeInfo } from './framework.js';
import { interPodAffinity } from './inter-pod-affinity.js';
import { nodeAffinity, nodeName, nodePorts, nodeUnschedulable, taintToleration } from './node-filters.js';
import { balancedAllocationScore, leastAllocatedScore, nodeResourcesFit } from './resource-fit.js';
import {
  defaultNormalize,
  interPodAffinityScores,
  intolerablePreferNoSchedule,
  preferredNodeAffinity,
  topologySpreadScores,
} from './scores.js';
import { podTopologySpread } from './topology-spread.js';
import { volumeBinding } from './volume-binding.js';

/**
 * The default profile's filters in upstream's order (VolumeBinding the only volume plugin with
 * something to check here: no attach limits, zones or volume restrictions are simulated).
 */
export const DEFAULT_FILTERS: readonly FilterPlugin[] = [
  nodeUnschedulable,
  nodeName,
  taintToleration,
  nodeAffinity,
  nodePorts,
  nodeResourcesFit,
  volumeBinding,
  podTopologySpread,
  interPodAffinity,
];

/** Upstream ErrNoNodesAvailable. */
export const NO_NODES_MESSAGE = 'no nodes available to schedule pods';

/** What one attempt decided: a node, or why none fits (the PodScheduled condition's message). */
export type ScheduleResult =
  | { readonly kind: 'scheduled'; readonly node: string; readonly feasible: number }
  | { readonly kind: 'unschedulable'; readonly message: string; readonly statuses: ReadonlyMap<string, FilterStatus> };

/** Filter every node; the statuses of refused nodes by name. */
export function filterNodes(
  pod: Pod,
  cluster: ClusterView,
  filters: readonly FilterPlugin[] = DEFAULT_FILTERS,
): { feasible: NodeInfo[]; statuses: Map<string, FilterStatus> } {
  const checks = filters.map((f) => f.prepare(pod, cluster));
  const feasible: NodeInfo[] = [];
  const statuses = new Map<string, FilterStatus>();
  for (const info of cluster.nodes) {
    let refused: FilterStatus | null = null;
    for (const check of checks) if ((refused = check(info))) break;
    if (refused) statuses.set(info.node.metadata.name ?? '', refused);
    else feasible.push(info);
  }
  return { feasible, statuses };
}

/** "0/N nodes are available: <count> <reason>, ...." with reasons sorted as strings (upstream FitError.Error). */
export function nodesAvailableMessage(numAllNodes: number, reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const histogram = [...counts].map(([r, n]) => `${n} ${r}`).sort();
  return `0/${numAllNodes} nodes are available:` + (histogram.length ? ` ${histogram.join(', ')}.` : '');
}

/**
 * The DefaultPreemption PostFilter's message for a pod that fits nowhere (`preemption: ...`).
 * This scheduler does not preempt: a node refused `Unschedulable` (where preemption could help)
 * is reported as upstream reports a node without victims, every other node as one preemption
 * does not help. Where upstream would find lower-priority victims and preempt, this differs.
 */
export function preemptionMessage(pod: Pod, cluster: ClusterView, statuses: ReadonlyMap<string, FilterStatus>): string {
  if (pod.spec?.preemptionPolicy === 'Never') return 'preemption: not eligible due to preemptionPolicy=Never.';
  const reasons: string[] = [];
  for (const info of cluster.nodes) {
    const st = statuses.get(info.node.metadata.name ?? '');
    reasons.push(
      st?.code === 'Unschedulable'
        ? 'No preemption victims found for incoming pod'
        : 'Preemption is not helpful for scheduling',
    );
  }
  return `preemption: ${nodesAvailableMessage(cluster.nodes.length, reasons)}`;
}

/** The default profile's score weights (default_plugins.go). */
const WEIGHTS = { fit: 1, balanced: 1, taint: 3, nodeAffinity: 2, spread: 2, interPod: 2 } as const;

/** The weighted total score of each feasible node, in order (upstream prioritizeNodes). */
export function scoreNodes(pod: Pod, feasible: readonly NodeInfo[], cluster: ClusterView): number[] {
  const fit = feasible.map((n) => leastAllocatedScore(pod, n));
  const balancedRaw = feasible.map((n) => balancedAllocationScore(pod, n));
  const taint = defaultNormalize(
    feasible.map((n) => intolerablePreferNoSchedule(pod, n)),
    true,
  );
  const affinity = defaultNormalize(
    feasible.map((n) => preferredNodeAffinity(pod, n)),
    false,
  );
  const spread = topologySpreadScores(pod, feasible, cluster);
  const inter = interPodAffinityScores(pod, feasible, cluster);
  return feasible.map(
    (_, i) =>
      fit[i] * WEIGHTS.fit +
      (balancedRaw[i] ?? 0) * WEIGHTS.balanced +
      taint[i] * WEIGHTS.taint +
      affinity[i] * WEIGHTS.nodeAffinity +
      spread[i] * WEIGHTS.spread +
      inter[i] * WEIGHTS.interPod,
  );
}

/**
 * The index of the highest score (upstream selectHost): among equal highest scores each is
 * chosen with equal chance by reservoir sampling; `random` (in [0, 1)) makes it deterministic.
 * Throws on an empty list.
 */
export function selectHost(scores: readonly number[], random: () => number = Math.random): number {
  if (!scores.length) throw new Error('empty priorityList');
  let selected = 0;
  let count = 1;
  for (let i = 1; i < scores.length; i++) {
    if (scores[i] > scores[selected]) {
      selected = i;
      count = 1;
    } else if (scores[i] === scores[selected]) {
      count++;
      if (Math.floor(random() * count) === 0) selected = i;
    }
  }
  return selected;
}

/**
 * Decide where `pod` goes (upstream schedulePod plus the PostFilter message): no nodes gives
 * upstream's ErrNoNodesAvailable text; a PreFilter refusal "0/N nodes are available: <its
 * message>." with the preemption suffix; no feasible node the FitError message with the
 * preemption suffix; one feasible node is taken without scoring.
 */
export function schedulePod(
  pod: Pod,
  cluster: ClusterView,
  random: () => number = Math.random,
  filters: readonly FilterPlugin[] = DEFAULT_FILTERS,
): ScheduleResult {
  if (!cluster.nodes.length) return { kind: 'unschedulable', message: NO_NODES_MESSAGE, statuses: new Map() };
  for (const f of filters) {
    const refused = f.preFilter?.(pod, cluster);
    if (!refused) continue;
    // Upstream: every node gets the PreFilter's status; FitError reports its message alone.
    const statuses = new Map<string, FilterStatus>();
    for (const info of cluster.nodes)
      statuses.set(info.node.metadata.name ?? '', {
        plugin: f.name,
        code: 'UnschedulableAndUnresolvable',
        reasons: [refused],
      });
    const message = `0/${cluster.nodes.length} nodes are available: ${refused}. ${preemptionMessage(pod, cluster, statuses)}`;
    return { kind: 'unschedulable', message, statuses };
  }
  const { feasible, statuses } = filterNodes(pod, cluster, filters);
  if (!feasible.length) {
    const reasons = [...statuses.values()].flatMap((s) => s.reasons);
    const message = `${nodesAvailableMessage(cluster.nodes.length, reasons)} ${preemptionMessage(pod, cluster, statuses)}`;
    return { kind: 'unschedulable', message, statuses };
  }
  if (feasible.length === 1) return { kind: 'scheduled', node: feasible[0].node.metadata.name ?? '', feasible: 1 };
  const scores = scoreNodes(pod, feasible, cluster);
  const chosen = feasible[selectHost(scores, random)];
  return { kind: 'scheduled', node: chosen.node.metadata.name ?? '', feasible: feasible.length };
}
