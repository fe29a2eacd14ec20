/**
 * What a simulated node reports, as a kubelet registers and reports its Node (upstream
 * pkg/kubelet/kubelet_node_status.go initialNode, pkg/kubelet/nodestatus/setters.go) and
 * renews its Lease (pkg/kubelet/nodelease, component-helpers/apimachinery/lease):
 *  - labels kubernetes.io/hostname, kubernetes.io/os, kubernetes.io/arch and their beta
 *    forms, node.kubernetes.io/instance-type, and {@link SIMULATED_NODE_LABEL};
 *  - capacity and allocatable; conditions MemoryPressure, DiskPressure, PIDPressure (False)
 *    and Ready (True) with the kubelet's reasons and messages, and NetworkUnavailable (False)
 *    as the route controller sets it; addresses InternalIP and Hostname; nodeInfo;
 *  - spec.podCIDR(s) as the node IPAM controller assigns them.
 * Field names follow this server's Node schema (nodeInfo `agentVersion` is upstream's
 * kubeletVersion, daemonEndpoints `agentEndpoint` its kubeletEndpoint).
 */
import { createHash } from 'node:crypto';
import { rfc3339 } from '../../api/object.js';
import type { Lease } from '../../resources/leases/leases.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { addressAt, parseCidr, subnetAt } from './ipv4.js';
import { SIMULATED_NODE_LABEL, type ResolvedOptions } from './options.js';
import { isSimulatedNode } from '../../resources/nodes/simulated-node.js';

/** The namespace of node heartbeats (upstream corev1.NamespaceNodeLease). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

/** One simulated node's identity: its name, InternalIP and pod CIDR. */
export interface SimulatedNodeIdentity {
  readonly name: string;
  readonly internalIP: string;
  readonly podCIDR: string;
}

/**
 * Name and addresses of simulated node `index` (0-based): `<prefix><index>`, the (index+2)th
 * address of the node range, the index-th subnet of the cluster CIDR. Throws RangeError when
 * a range is too small for the index.
 */
export function nodeIdentity(opts: ResolvedOptions, index: number): SimulatedNodeIdentity {
  return {
    name: `${opts.namePrefix}${index}`,
    internalIP: addressAt(parseCidr(opts.nodeIpRange), index + 2),
    podCIDR: subnetAt(parseCidr(opts.clusterCidr), opts.nodeCidrMaskSize, index),
  };
}

/** A stable, uuid-shaped id derived from `seed` (machine, system and boot ids). */
function stableId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * The conditions a healthy kubelet reports (setters.go MemoryPressureCondition,
 * DiskPressureCondition, PIDPressureCondition, ReadyCondition) after NetworkUnavailable (the
 * route controller's), heartbeat `now`; a condition whose status is unchanged in `previous`
 * keeps its lastTransitionTime, as the setters do.
 */
export function nodeConditions(now: Date, previous: readonly NodeCondition[] = []): NodeCondition[] {
  const heartbeat = rfc3339(now);
  const specs: [string, string, string, string][] = [
    ['NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'],
    ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
  ];
  return specs.map(([type, status, reason, message]) => {
    const old = previous.find((c) => c.type === type);
    const lastTransitionTime = old?.status === status && old.lastTransitionTime ? old.lastTransitionTime : heartbeat;
    return { type, status, reason, message, lastHeartbeatTime: heartbeat, lastTransitionTime };
  });
}

/** The Node a kubelet registers for `id`, with its status at `now`. */
export function buildNode(opts: ResolvedOptions, id: SimulatedNodeIdentity, now: Date): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': id.name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': opts.instanceType,
        [SIMULATED_NODE_LABEL]: 'true',
      },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: id.podCIDR, podCIDRs: [id.podCIDR] },
    status: buildNodeStatus(opts, id, now),
  };
}

/** A simulated node's status at `now` (conditions keep transitions from `previous`). */
export function buildNodeStatus(
  opts: ResolvedOptions,
  id: SimulatedNodeIdentity,
  now: Date,
  previous: readonly NodeCondition[] = [],
): NonNullable<Node['status']> {
  return {
    capacity: { ...opts.capacity },
    allocatable: { ...opts.allocatable },
    conditions: nodeConditions(now, previous),
    addresses: [
      { type: 'InternalIP', address: id.internalIP },
      { type: 'Hostname', address: id.name },
    ],
    daemonEndpoints: { agentEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: stableId(`machine/${id.name}`).replaceAll('-', ''),
      systemUUID: stableId(`system/${id.name}`),
      bootID: stableId(`boot/${id.name}`),
      kernelVersion: '6.8.0-sim',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'containerd://2.0.5',
      agentVersion: opts.kubeletVersion,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

/** MicroTime text (RFC 3339 with microseconds), as a Lease's renewTime. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * The Lease a kubelet keeps for its node (nodelease controller newLease): holder the node,
 * leaseDurationSeconds, renewTime `now`, owned by the Node (`nodeUid`).
 */
export function buildLease(opts: ResolvedOptions, nodeName: string, nodeUid: string, now: Date): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: nodeName,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }],
    },
    spec: { holderIdentity: nodeName, leaseDurationSeconds: opts.leaseDurationSeconds, renewTime: microTime(now) },
  };
}

/** Annotation on a simulated Node: `paused` stops its Lease renewals and status reports. */
export const HEARTBEAT_ANNOTATION = 'sim.ck.io/heartbeat';

/** Whether the node's heartbeat is paused by {@link HEARTBEAT_ANNOTATION}. */
export const heartbeatPaused = (node: Pick<Node, 'metadata'> | undefined): boolean =>
  node?.metadata.annotations?.[HEARTBEAT_ANNOTATION] === 'paused';

/** Whether a Node is one a user created for the server to play (resources/nodes/simulated-node.ts). */
export const labelledSimulated = isSimulatedNode;

/**
 * The identity of a Node a user created with the simulated label, as slot `index` (counted
 * with the numbered nodes): its own InternalIP and spec.podCIDR when it has them, else the
 * slot's. Throws RangeError when a range is too small for the index.
 */
export function userNodeIdentity(
  opts: ResolvedOptions,
  node: Pick<Node, 'metadata' | 'spec' | 'status'>,
  index: number,
): SimulatedNodeIdentity {
  const slot = nodeIdentity(opts, index);
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  return {
    name: node.metadata.name ?? '',
    internalIP: ip || slot.internalIP,
    podCIDR: node.spec?.podCIDR || slot.podCIDR,
  };
}

const nonEmpty = <T extends object>(x: T | null | undefined): x is T => !!x && Object.keys(x).length > 0;

/**
 * The status a kubelet reports for a user's Node at `now`: the kubelet's conditions (keeping
 * transitions from `current`), and what the user left empty filled in as for a numbered node
 * (capacity, allocatable, addresses, daemonEndpoints, nodeInfo fields).
 */
export function userNodeStatus(
  opts: ResolvedOptions,
  id: SimulatedNodeIdentity,
  now: Date,
  current: Node['status'] | undefined,
): NonNullable<Node['status']> {
  const filled = buildNodeStatus(opts, id, now, current?.conditions ?? []);
  const capacity = nonEmpty(current?.capacity) ? current.capacity : filled.capacity;
  const nodeInfo = Object.fromEntries(
    Object.entries({ ...filled.nodeInfo, ...current?.nodeInfo }).map(([k, v]) => [
      k,
      v || (filled.nodeInfo as Record<string, unknown>)[k],
    ]),
  );
  return {
    ...current,
    ...filled,
    capacity,
    allocatable: nonEmpty(current?.allocatable) ? current.allocatable : capacity,
    addresses: current?.addresses?.length ? current.addresses : filled.addresses,
    nodeInfo: nodeInfo as NonNullable<Node['status']>['nodeInfo'],
  };
}

/**
 * Whether a stored node status differs from what the kubelet reports (conditions Ready True,
 * the others False), so a kubelet would write it before its report period (upstream
 * nodeStatusHasChanged): e.g. after the node lifecycle controller set them Unknown.
 */
export function conditionsDrifted(status: Node['status'] | undefined): boolean {
  const healthy = nodeConditions(new Date(0));
  return healthy.some((h) => (status?.conditions ?? []).find((c) => c.type === h.type)?.status !== h.status);
}
