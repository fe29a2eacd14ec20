/**
 * The taints the node lifecycle controller manages (upstream 1.33
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go UnreachableTaintTemplate,
 * NotReadyTaintTemplate, nodeConditionToTaintKeyStatusMap, doNoScheduleTaintingPass;
 * pkg/util/taints TaintSetDiff and TaintExists; pkg/controller/util/node
 * SwapNodeControllerTaint): taints match by key and effect.
 */
import { rfc3339 } from '../../api/object.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Taint } from '../tainteviction/tolerations.js';

/** A node's taint (re-exported). */
export type { Taint };
type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

/** The well-known taint keys (upstream core/v1 TaintNode*). */
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';

/** The NoExecute taint of a node whose Ready condition is Unknown. */
export const UNREACHABLE_TAINT: Taint = Object.freeze({ key: TAINT_UNREACHABLE, effect: 'NoExecute' });
/** The NoExecute taint of a node whose Ready condition is False. */
export const NOT_READY_TAINT: Taint = Object.freeze({ key: TAINT_NOT_READY, effect: 'NoExecute' });

/** Which condition status gives which taint key (upstream nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_PID_PRESSURE },
};

/** The taint keys that stand for a node condition (upstream taintKeyToNodeConditionMap). */
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

/** Whether taints `a` and `b` have the same key and effect (upstream Taint.MatchTaint). */
export const matchTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

/** Whether `taints` holds one matching `taint` (upstream TaintExists). */
export const taintExists = (taints: readonly Taint[] | null | undefined, taint: Taint): boolean =>
  (taints ?? []).some((t) => matchTaint(t, taint));

/** The node's condition `type`, if reported. */
export function nodeCondition(node: Pick<Node, 'status'>, type: string): NodeCondition | undefined {
  return (node.status?.conditions ?? []).find((c) => c.type === type);
}

/**
 * The NoSchedule taints a node should have (upstream doNoScheduleTaintingPass): one per
 * condition in a tainting status, and `node.kubernetes.io/unschedulable` for spec.unschedulable.
 */
export function desiredNoScheduleTaints(node: Pick<Node, 'spec' | 'status'>): Taint[] {
  const taints: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) taints.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) taints.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  return taints;
}

/** The node's NoSchedule taints this controller manages (condition taints and unschedulable). */
export function managedNoScheduleTaints(taints: readonly Taint[] | null | undefined): Taint[] {
  return (taints ?? []).filter(
    (t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)),
  );
}

/** What `desired` adds to and removes from `current` (upstream TaintSetDiff). */
export function taintSetDiff(
  desired: readonly Taint[],
  current: readonly Taint[],
): { readonly add: Taint[]; readonly remove: Taint[] } {
  return {
    add: desired.filter((t) => !taintExists(current, t)),
    remove: current.filter((t) => !taintExists(desired, t)),
  };
}

/**
 * The taints of a node after adding `add` (timeAdded `now`, replacing a taint of the same key
 * and effect) and removing `remove` (upstream SwapNodeControllerTaint); undefined when nothing
 * changes.
 */
export function swapTaints(
  taints: readonly Taint[] | null | undefined,
  add: readonly Taint[],
  remove: readonly Taint[],
  now: Date,
): Taint[] | undefined {
  let next = [...(taints ?? [])];
  let changed = false;
  for (const t of remove) {
    const kept = next.filter((x) => !matchTaint(x, t));
    changed ||= kept.length !== next.length;
    next = kept;
  }
  for (const t of add) {
    const old = next.find((x) => matchTaint(x, t));
    if (old && (old.value ?? '') === (t.value ?? '')) continue;
    const added: Taint = { ...t, timeAdded: rfc3339(now) };
    next = old ? next.map((x) => (x === old ? added : x)) : [...next, added];
    changed = true;
  }
  return changed ? next : undefined;
}

/**
 * The taints after the NoSchedule pass (doNoScheduleTaintingPass) at `now`; undefined when they
 * are right already.
 */
export function noScheduleTaintingPass(node: Pick<Node, 'spec' | 'status'>, now: Date): Taint[] | undefined {
  const { add, remove } = taintSetDiff(desiredNoScheduleTaints(node), managedNoScheduleTaints(node.spec?.taints));
  if (!add.length && !remove.length) return undefined;
  return swapTaints(node.spec?.taints, add, remove, now);
}
