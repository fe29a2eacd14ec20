/**
 * A node's health as the lifecycle controller judges it (upstream 1.33
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go tryUpdateNodeHealth): the local time
 * a health signal was last seen (a changed Ready heartbeat in the node's status, or a newer
 * renewTime of its Lease in kube-node-lease), and, once no signal came for the grace period
 * (nodeStartupGracePeriod for a node that never reported Ready, nodeMonitorGracePeriod
 * otherwise), the status to write: Ready, MemoryPressure, DiskPressure and PIDPressure Unknown,
 * reason `NodeStatusUnknown`, message "Kubelet stopped posting node status." (a condition never
 * reported is added with reason `NodeStatusNeverUpdated`, "Kubelet never posted node status.").
 * Times are ms since the epoch.
 */
import { rfc3339 } from '../../api/object.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { nodeCondition } from './taints.js';

/** A Node's condition. */
export type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

/** What the controller remembers of a node (upstream nodeHealthData). */
export interface NodeHealth {
  /** When a health signal was last seen (local clock). */
  readonly probeTimestamp: number;
  /** When the Ready condition was last seen to change. */
  readonly readyTransitionTimestamp: number;
  /** The node's status as last seen. */
  readonly status: NonNullable<Node['status']>;
  /** The renewTime of the node's Lease as last seen (MicroTime text). */
  readonly leaseRenewTime?: string;
}

/** The grace periods, ms (upstream --node-startup-grace-period 60 s, --node-monitor-grace-period 50 s since 1.32). */
export interface GracePeriods {
  readonly nodeStartupGracePeriodMs: number;
  readonly nodeMonitorGracePeriodMs: number;
}

/** What one health check found (upstream tryUpdateNodeHealth's results). */
export interface HealthCheck {
  readonly health: NodeHealth;
  readonly gracePeriodMs: number;
  /** The Ready condition as the node reported it (a made-up Unknown one when it never did). */
  readonly observedReady: NodeCondition;
  /** The Ready condition after this check (undefined when the node never reported one and no update was due). */
  readonly currentReady: NodeCondition | undefined;
  /** The status to write through nodes/status, when one is due. */
  readonly statusUpdate?: NonNullable<Node['status']>;
}

/** The condition types turned Unknown when the node goes silent (NetworkUnavailable is left alone). */
const KUBELET_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

const timeMs = (t: string | null | undefined): number => {
  const ms = Date.parse(t ?? '');
  return Number.isNaN(ms) ? 0 : ms;
};

/**
 * Check `node` against what was `saved` of it and its Lease's renewTime (`leaseRenewTime`,
 * undefined without a Lease) at `now` (upstream tryUpdateNodeHealth).
 */
export function checkNodeHealth(
  node: Pick<Node, 'metadata' | 'status'>,
  saved: NodeHealth | undefined,
  leaseRenewTime: string | undefined,
  now: number,
  grace: GracePeriods,
): HealthCheck {
  const status = node.status ?? {};
  const created = node.metadata.creationTimestamp ?? rfc3339(new Date(0));
  let currentReady = nodeCondition(node, 'Ready');
  let health = saved;
  let gracePeriodMs: number;
  let observedReady: NodeCondition;
  if (!currentReady) {
    observedReady = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: created, lastTransitionTime: created };
    gracePeriodMs = grace.nodeStartupGracePeriodMs;
    health = health
      ? { ...health, status }
      : { status, probeTimestamp: timeMs(created), readyTransitionTimestamp: timeMs(created) };
  } else {
    observedReady = { ...currentReady };
    gracePeriodMs = grace.nodeMonitorGracePeriodMs;
  }
  // What was saved, as upstream reads it after the never-reported case above filled it in.
  const savedReady = health ? nodeCondition(health, 'Ready') : undefined;
  const savedLease = health?.leaseRenewTime;
  if (!health) {
    health = { status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (!savedReady !== !currentReady) {
    // Newly reporting Ready (e.g. after a controller restart), or Ready removed.
    health = { status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedReady && currentReady && savedReady.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transition =
      savedReady.lastTransitionTime !== currentReady.lastTransitionTime ? now : health.readyTransitionTimestamp;
    health = { status, probeTimestamp: now, readyTransitionTimestamp: transition };
  }
  let next = health!;
  if (leaseRenewTime && (!savedLease || timeMs(savedLease) < timeMs(leaseRenewTime)))
    next = { ...next, leaseRenewTime, probeTimestamp: now };
  if (!(now > next.probeTimestamp + gracePeriodMs)) return { health: next, gracePeriodMs, observedReady, currentReady };

  const stamp = rfc3339(new Date(now));
  const conditions = [...(status.conditions ?? [])];
  for (const type of KUBELET_CONDITIONS) {
    const i = conditions.findIndex((c) => c.type === type);
    if (i < 0)
      conditions.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: created,
        lastTransitionTime: stamp,
      });
    else if (conditions[i]!.status !== 'Unknown')
      conditions[i] = {
        ...conditions[i]!,
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: stamp,
      };
  }
  currentReady = conditions.find((c) => c.type === 'Ready');
  if (JSON.stringify(currentReady) === JSON.stringify(observedReady))
    return { health: next, gracePeriodMs, observedReady, currentReady };
  const statusUpdate = { ...status, conditions };
  return {
    health: {
      status: statusUpdate,
      probeTimestamp: next.probeTimestamp,
      readyTransitionTimestamp: now,
      leaseRenewTime: leaseRenewTime ?? next.leaseRenewTime,
    },
    gracePeriodMs,
    observedReady,
    currentReady,
    statusUpdate,
  };
}
