/**
 * Pods by the node they are bound to, kept from a pod watch (upstream's spec.nodeName indexer of
 * the pod informer, used by the taint eviction and node lifecycle controllers).
 */
import type { Pod } from '../../resources/pods/pods.schema.js';

/** Pods by node name, then by `namespace/name` (upstream's spec.nodeName index of the pod informer). */
export class PodsByNode {
  private readonly byNode = new Map<string, Map<string, Pod>>();
  private readonly nodeOf = new Map<string, string>();

  /** Record `pod` (or its removal); answers the pod as it was before. */
  apply(pod: Pod, deleted: boolean): Pod | undefined {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const prevNode = this.nodeOf.get(key);
    const prev = prevNode === undefined ? undefined : this.byNode.get(prevNode)?.get(key);
    if (prevNode !== undefined) {
      this.byNode.get(prevNode)?.delete(key);
      this.nodeOf.delete(key);
    }
    const node = pod.spec?.nodeName ?? '';
    if (!deleted) {
      if (!this.byNode.has(node)) this.byNode.set(node, new Map());
      this.byNode.get(node)!.set(key, pod);
      this.nodeOf.set(key, node);
    }
    return prev;
  }

  /** The pods on `nodeName`. */
  on(nodeName: string): Pod[] {
    return nodeName ? [...(this.byNode.get(nodeName)?.values() ?? [])] : [];
  }
}
