/**
 * A fake of the lifecycle controller's client for its unit tests (upstream testutil
 * FakeNodeHandler with a fake clientset): nodes, leases and pods in maps, every write recorded.
 */
import type { Lease } from '../../resources/leases/leases.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { LifecycleClient } from './lifecycle.js';
import type { Taint } from './taints.js';

type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

/** The fake client: `actions` lists the writes (`update-status <node>`, `update-taints <node>`, `update-pod-status <pod>`). */
export class FakeLifecycleClient implements LifecycleClient {
  readonly nodes = new Map<string, Node>();
  readonly leases = new Map<string, Lease>();
  readonly pods = new Map<string, Pod>();
  readonly actions: string[] = [];
  readonly events: string[] = [];

  constructor(nodes: Node[] = [], pods: Pod[] = []) {
    for (const n of nodes) this.nodes.set(n.metadata.name!, n);
    for (const p of pods) this.pods.set(p.metadata.name!, p);
  }

  listNodes = () => [...this.nodes.values()];
  getNode = (name: string) => this.nodes.get(name);
  getNodeFresh = async (name: string) => this.nodes.get(name);
  getLease = (name: string) => this.leases.get(name);
  podsOnNode = (name: string) => [...this.pods.values()].filter((p) => p.spec?.nodeName === name);
  writeNodeStatus = async (node: Node, status: NonNullable<Node['status']>) => {
    this.actions.push(`update-status ${node.metadata.name}`);
    const cur = this.nodes.get(node.metadata.name!)!;
    this.nodes.set(node.metadata.name!, { ...cur, status });
  };
  updateNodeTaints = async (node: Node, change: (cur: Node) => Taint[] | undefined) => {
    const cur = this.nodes.get(node.metadata.name!)!;
    const taints = change(cur);
    if (!taints) return;
    this.actions.push(`update-taints ${node.metadata.name}`);
    this.nodes.set(node.metadata.name!, { ...cur, spec: { ...cur.spec, taints } });
  };
  nodeEvent = (node: Node, reason: string) => void this.events.push(`${reason} ${node.metadata.name}`);
  writePodStatus = async (pod: Pod, status: NonNullable<Pod['status']>) => {
    if (!this.pods.has(pod.metadata.name!)) throw Object.assign(new Error('not found'), { code: 404 });
    this.actions.push(`update-pod-status ${pod.metadata.name}`);
    this.pods.set(pod.metadata.name!, { ...pod, status });
  };
  podNotReadyEvent = (pod: Pod) => void this.events.push(`NodeNotReady ${pod.metadata.name}`);

  /** Replace a node's status (a kubelet's write). */
  setStatus(name: string, conditions: NodeCondition[]): void {
    const cur = this.nodes.get(name)!;
    this.nodes.set(name, { ...cur, status: { ...cur.status, conditions } });
  }
}

/** A node condition with both times. */
export const cond = (type: string, status: string, heartbeat: string, transition = heartbeat): NodeCondition => ({
  type,
  status,
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: transition,
});

/** A node created at `created` in zone1 of region1 (upstream's test nodes). */
export function testNode(name: string, created: string, conditions?: NodeCondition[], taints?: Taint[]): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${name}`,
      creationTimestamp: created,
      labels: { 'topology.kubernetes.io/region': 'region1', 'topology.kubernetes.io/zone': 'zone1' },
    },
    spec: taints ? { taints } : {},
    ...(conditions ? { status: { conditions } } : {}),
  };
}

/** upstream testutil.NewPod: Ready True on `nodeName`. */
export function testPod(name: string, nodeName: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  } as Pod;
}
