/**
 * The per-node filter plugins of upstream 1.33's default profile (pkg/scheduler/framework/
 * plugins): NodeUnschedulable, NodeName, TaintToleration, NodeAffinity and NodePorts, with
 * upstream's reason texts and codes.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import { anyTolerates, matchesRequiredNodeAffinity, refuse, type FilterPlugin, type NodeInfo } from './framework.js';

/** Upstream v1.TaintNodeUnschedulable. */
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/**
 * NodeUnschedulable (nodeunschedulable/node_unschedulable.go): a node with
 * spec.unschedulable refuses pods that do not tolerate the `node.kubernetes.io/unschedulable`
 * NoSchedule taint.
 */
export const nodeUnschedulable: FilterPlugin = {
  name: 'NodeUnschedulable',
  prepare: (pod) => (info) => {
    if (!info.node.spec?.unschedulable) return null;
    const taint = { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule', value: '' };
    if (anyTolerates(pod.spec?.tolerations, taint)) return null;
    return refuse('NodeUnschedulable', 'UnschedulableAndUnresolvable', 'node(s) were unschedulable');
  },
};

/** NodeName (nodename/node_name.go): a pod naming a node fits only that node. */
export const nodeName: FilterPlugin = {
  name: 'NodeName',
  prepare: (pod) => (info) =>
    !pod.spec?.nodeName || pod.spec.nodeName === info.node.metadata.name
      ? null
      : refuse('NodeName', 'UnschedulableAndUnresolvable', "node(s) didn't match the requested node name"),
};

/**
 * TaintToleration (tainttoleration/taint_toleration.go Filter): the first NoSchedule or
 * NoExecute taint the pod does not tolerate refuses the node, named in the reason.
 */
export const taintToleration: FilterPlugin = {
  name: 'TaintToleration',
  prepare: (pod) => (info) => {
    for (const taint of info.node.spec?.taints ?? []) {
      if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
      if (anyTolerates(pod.spec?.tolerations, taint)) continue;
      return refuse(
        'TaintToleration',
        'UnschedulableAndUnresolvable',
        `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`,
      );
    }
    return null;
  },
};

/**
 * NodeAffinity (nodeaffinity/node_affinity.go Filter): the pod's nodeSelector and required
 * node affinity must hold.
 */
export const nodeAffinity: FilterPlugin = {
  name: 'NodeAffinity',
  prepare: (pod) => (info) =>
    matchesRequiredNodeAffinity(pod, info.node)
      ? null
      : refuse('NodeAffinity', 'UnschedulableAndUnresolvable', "node(s) didn't match Pod's node affinity/selector"),
};

/** A host port a pod uses (upstream framework.ProtocolPort with its host IP). */
export interface HostPort {
  readonly hostIP: string;
  readonly protocol: string;
  readonly port: number;
}

/**
 * The host ports of a pod (upstream schedutil.GetHostPorts): of its containers and its
 * restartable init containers, with upstream's defaults (IP 0.0.0.0, protocol TCP).
 */
export function hostPortsOf(pod: Pod): HostPort[] {
  const containers = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  const out: HostPort[] = [];
  for (const c of containers)
    for (const p of c.ports ?? [])
      if (p.hostPort && p.hostPort > 0)
        out.push({ hostIP: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
  return out;
}

/** Whether two host ports conflict (upstream HostPortInfo.CheckConflict): same protocol and port, and one IP is 0.0.0.0 or both equal. */
export const portsConflict = (a: HostPort, b: HostPort): boolean =>
  a.protocol === b.protocol &&
  a.port === b.port &&
  (a.hostIP === '0.0.0.0' || b.hostIP === '0.0.0.0' || a.hostIP === b.hostIP);

/** NodePorts (nodeports/node_ports.go): the pod's host ports must be free on the node. */
export const nodePorts: FilterPlugin = {
  name: 'NodePorts',
  prepare: (pod) => {
    const wanted = hostPortsOf(pod);
    return (info: NodeInfo) => {
      if (!wanted.length) return null;
      const used = info.pods.flatMap(hostPortsOf);
      return wanted.some((w) => used.some((u) => portsConflict(w, u)))
        ? refuse('NodePorts', 'Unschedulable', "node(s) didn't have free ports for the requested pod ports")
        : null;
    };
  },
};
