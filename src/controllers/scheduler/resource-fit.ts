/**
 * NodeResourcesFit and NodeResourcesBalancedAllocation (upstream pkg/scheduler/framework/
 * plugins/noderesources fit.go, least_allocated.go, balanced_allocation.go; a pod's requests
 * as component-helpers resource.PodRequests computes them). Amounts are numbers: cpu in
 * millicores, every other resource in its whole unit (bytes for memory and ephemeral-storage).
 */
import { milliValue, parseQuantity, wholeValue } from '../../api/quantity.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { refuse, type FilterPlugin, type NodeInfo } from './framework.js';

/** Resource name to amount (cpu in millicores, others in whole units). */
export type Amounts = Map<string, number>;

/** Upstream DefaultMilliCPURequest and DefaultMemoryRequest: what a container without a request counts for scoring. */
export const NON_ZERO_DEFAULTS: ReadonlyMap<string, number> = new Map([
  ['cpu', 100],
  ['memory', 200 * 1024 * 1024],
]);

function amountsOf(raw: Readonly<Record<string, unknown>> | undefined | null): Amounts {
  const out: Amounts = new Map();
  for (const [name, value] of Object.entries(raw ?? {})) {
    try {
      const q = parseQuantity(value as string | number);
      out.set(name, Number(name === 'cpu' ? milliValue(q) : wholeValue(q)));
    } catch {
      // a stored pod's quantities passed validation; anything else counts as nothing
    }
  }
  return out;
}

const add = (into: Amounts, from: Amounts) => {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
};
const max = (into: Amounts, from: Amounts) => {
  for (const [k, v] of from) if (v > (into.get(k) ?? 0)) into.set(k, v);
};

/**
 * A pod's requests (upstream resource.PodRequests): the sum of its containers and of its
 * restartable (sidecar) init containers, at least the largest need of any init container while
 * it runs beside the sidecars started before it, plus the pod overhead. With `nonZero`, a
 * container missing a cpu or memory request counts upstream's defaults (scoring's
 * NonMissingContainerRequests).
 */
export function podRequests(pod: Pod, nonZero = false): Amounts {
  const memo = nonZero ? nonZeroMemo : actualMemo;
  let out = memo.get(pod);
  if (!out) memo.set(pod, (out = computeRequests(pod, nonZero)));
  return out;
}

/** Requests per pod object (objects from the watch are not changed in place). */
const actualMemo = new WeakMap<Pod, Amounts>();
const nonZeroMemo = new WeakMap<Pod, Amounts>();

function computeRequests(pod: Pod, nonZero: boolean): Amounts {
  const containerReqs = (c: { resources?: { requests?: Record<string, unknown> | null } | null }) => {
    const reqs = amountsOf(c.resources?.requests);
    if (nonZero) for (const [k, v] of NON_ZERO_DEFAULTS) if (!reqs.has(k)) reqs.set(k, v);
    return reqs;
  };
  const reqs: Amounts = new Map();
  for (const c of pod.spec?.containers ?? []) add(reqs, containerReqs(c));
  const sidecars: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = containerReqs(c);
    if (c.restartPolicy === 'Always') {
      add(reqs, own);
      add(sidecars, own);
      max(initMax, sidecars);
    } else {
      const running = new Map(own);
      add(running, sidecars);
      max(initMax, running);
    }
  }
  max(reqs, initMax);
  add(reqs, amountsOf(pod.spec?.overhead));
  return reqs;
}

/** The allocatable amounts of a node (status.allocatable; upstream NodeInfo.Allocatable). */
export function allocatableOf(info: NodeInfo): Amounts {
  let out = allocatableMemo.get(info.node);
  if (!out) allocatableMemo.set(info.node, (out = amountsOf(info.node.status?.allocatable)));
  return out;
}

/** Allocatable per node object (objects from the watch are not changed in place). */
const allocatableMemo = new WeakMap<object, Amounts>();

/** The sum of the requests of the pods on a node (upstream NodeInfo.Requested, or NonZeroRequested with `nonZero`). */
export function requestedOn(info: NodeInfo, nonZero = false): Amounts {
  const memo = nonZero ? nonZeroOnNode : actualOnNode;
  let sum = memo.get(info);
  if (!sum) {
    sum = new Map();
    for (const p of info.pods) add(sum, podRequests(p, nonZero));
    memo.set(info, sum);
  }
  return sum;
}

/** Sums per node snapshot (a NodeInfo is replaced, never changed, when its node or pods change). */
const actualOnNode = new WeakMap<NodeInfo, Amounts>();
const nonZeroOnNode = new WeakMap<NodeInfo, Amounts>();

/**
 * The resources a pod lacks on a node (upstream fitsRequest): `Too many pods` when the node's
 * pod count is reached, then `Insufficient <name>` for cpu, memory, ephemeral-storage and each
 * other requested resource whose request exceeds allocatable minus what the node's pods request.
 * A pod requesting nothing only needs a pod slot.
 */
export function insufficientResources(pod: Pod, info: NodeInfo, requests = podRequests(pod)): string[] {
  const allocatable = allocatableOf(info);
  const requested = requestedOn(info);
  const reasons: string[] = [];
  if (info.pods.length + 1 > (allocatable.get('pods') ?? 0)) reasons.push('Too many pods');
  const asked = [...requests].filter(([name, v]) => name !== 'pods' && v > 0);
  if (!asked.length) return reasons;
  const first = ['cpu', 'memory', 'ephemeral-storage'];
  const ordered = [
    ...first.filter((n) => requests.has(n)).map((n) => [n, requests.get(n) ?? 0] as const),
    ...asked.filter(([n]) => !first.includes(n)),
  ];
  for (const [name, amount] of ordered)
    if (amount > 0 && amount > (allocatable.get(name) ?? 0) - (requested.get(name) ?? 0))
      reasons.push(`Insufficient ${name}`);
  return reasons;
}

/** NodeResourcesFit's filter: refuses (Unschedulable) with every insufficient resource. */
export const nodeResourcesFit: FilterPlugin = {
  name: 'NodeResourcesFit',
  prepare: (pod) => {
    const requests = podRequests(pod);
    return (info) => {
      const reasons = insufficientResources(pod, info, requests);
      return reasons.length ? refuse('NodeResourcesFit', 'Unschedulable', ...reasons) : null;
    };
  },
};

const SCORED = ['cpu', 'memory'] as const;
const MAX_NODE_SCORE = 100;

/**
 * LeastAllocated (the default scoring strategy of NodeResourcesFit; least_allocated.go): per
 * resource `(allocatable - requested) * 100 / allocatable` with the pod's and the node's
 * non-zero requests, 0 when over; the integer mean over cpu and memory (weights 1).
 */
export function leastAllocatedScore(pod: Pod, info: NodeInfo): number {
  const allocatable = allocatableOf(info);
  const requested = requestedOn(info, true);
  const mine = podRequests(pod, true);
  let total = 0;
  for (const r of SCORED) {
    const cap = allocatable.get(r) ?? 0;
    const req = (requested.get(r) ?? 0) + (mine.get(r) ?? 0);
    total += cap === 0 || req > cap ? 0 : Math.floor(((cap - req) * MAX_NODE_SCORE) / cap);
  }
  return Math.floor(total / SCORED.length);
}

/**
 * NodeResourcesBalancedAllocation (balanced_allocation.go): `(1 - std) * 100` of the fractions
 * requested/allocatable of cpu and memory (each at most 1), with the pod's and the node's
 * actual requests. Null (skipped) for a pod that requests neither.
 */
export function balancedAllocationScore(pod: Pod, info: NodeInfo): number | null {
  const mine = podRequests(pod);
  if (!SCORED.some((r) => (mine.get(r) ?? 0) > 0)) return null;
  const allocatable = allocatableOf(info);
  const requested = requestedOn(info);
  const fractions = SCORED.filter((r) => (allocatable.get(r) ?? 0) > 0).map((r) =>
    Math.min(1, ((requested.get(r) ?? 0) + (mine.get(r) ?? 0)) / (allocatable.get(r) ?? 1)),
  );
  let std = 0;
  if (fractions.length === 2) std = Math.abs(fractions[0] - fractions[1]) / 2;
  else if (fractions.length > 2) {
    const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
    std = Math.sqrt(fractions.reduce((a, f) => a + (f - mean) ** 2, 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
