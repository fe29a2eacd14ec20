/**
 * The scheduler's view of the cluster (upstream pkg/scheduler/backend/cache: nodes, assigned
 * pods, assumed pods; a snapshot per cycle): kept from the node, pod and namespace watches.
 * A pod just bound is "assumed" on its node at once, so the next decision counts it before
 * the watch reports the binding.
 */
import type { Namespace } from '../../resources/namespaces/namespaces.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { isActivePod, type ClusterView, type NodeInfo } from './framework.js';

/** `namespace/name` of an object. */
export const keyOf = (obj: { metadata: { namespace?: string | null; name?: string | null } }): string =>
  `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

export class SchedulerCache {
  private readonly nodes = new Map<string, Node>();
  /** Assigned pods by key, and the node each counts on. */
  private readonly podNode = new Map<string, string>();
  private readonly byNode = new Map<string, Map<string, Pod>>();
  /** Keys of pods bound by us whose assigned event has not arrived yet, with their uid. */
  private readonly assumed = new Map<string, string>();
  private readonly namespaces = new Map<string, Readonly<Record<string, string>>>();
  private readonly infos = new Map<string, NodeInfo>();

  /** Record a node (added or changed). */
  setNode(node: Node): void {
    this.nodes.set(node.metadata.name ?? '', node);
    this.infos.delete(node.metadata.name ?? '');
  }

  /** Forget a node (its pods stay counted should it come back, as upstream's cache keeps them). */
  removeNode(name: string): void {
    this.nodes.delete(name);
    this.infos.delete(name);
  }

  setNamespace(ns: Namespace): void {
    this.namespaces.set(ns.metadata.name ?? '', ns.metadata.labels ?? {});
  }

  removeNamespace(name: string): void {
    this.namespaces.delete(name);
  }

  /** Whether an unassigned pod seen now is one we have just bound (an older event of it). */
  isAssumed(pod: Pod): boolean {
    return this.assumed.get(keyOf(pod)) === pod.metadata.uid;
  }

  /**
   * Count `pod` on `nodeName` (assumed: bound by us, not yet reported), or record a pod as the
   * watch reports it: counted while assigned and not finished, dropped otherwise. Returns true
   * when the pod stopped counting on a node it counted on (room was freed there).
   */
  setPod(pod: Pod, assumedOn?: string): boolean {
    const key = keyOf(pod);
    const node = assumedOn ?? pod.spec?.nodeName ?? '';
    if (assumedOn) this.assumed.set(key, pod.metadata.uid ?? '');
    else if (node) this.assumed.delete(key);
    else if (this.isAssumed(pod)) return false;
    const before = this.podNode.get(key);
    const removed = this.removePod(key, false);
    if (!node || !isActivePod(pod)) return removed;
    const placed = assumedOn
      ? { ...pod, spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: node } }
      : pod;
    let map = this.byNode.get(node);
    if (!map) this.byNode.set(node, (map = new Map()));
    map.set(key, placed);
    this.podNode.set(key, node);
    this.infos.delete(node);
    return before !== undefined && before !== node;
  }

  /** Stop counting the pod `key`; true when it was counted on a node. */
  removePod(key: string, forget = true): boolean {
    if (forget) this.assumed.delete(key);
    const node = this.podNode.get(key);
    if (node === undefined) return false;
    this.podNode.delete(key);
    this.byNode.get(node)?.delete(key);
    this.infos.delete(node);
    return true;
  }

  /** Forget an assumption whose binding failed. */
  forget(pod: Pod): void {
    if (this.isAssumed(pod)) this.removePod(keyOf(pod));
  }

  /** A snapshot for one decision: the nodes (in name order) with their pods. */
  view(): ClusterView {
    const nodes: NodeInfo[] = [];
    for (const name of [...this.nodes.keys()].sort()) {
      let info = this.infos.get(name);
      if (!info) {
        info = { node: this.nodes.get(name) as Node, pods: [...(this.byNode.get(name)?.values() ?? [])] };
        this.infos.set(name, info);
      }
      nodes.push(info);
    }
    return { nodes, namespaceLabels: (ns) => this.namespaces.get(ns) };
  }
}
