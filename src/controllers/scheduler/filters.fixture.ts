/**
 * What the scheduler's filter tests build: pods and nodes from a spec, a filter plugin run on one
 * node (with the pods already there), and pods with tolerations.
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClusterView, FilterPlugin, NodeInfo } from './framework.js';

type Spec = Record<string, unknown>;

/** A pod `ns/p` with `spec` (no containers unless given). */
export const pod = (spec: Spec = {}): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [], ...spec },
  }) as Pod;

/** A node `name` with `labels` and `spec`. */
export const node = (name: string, labels: Record<string, string> = {}, spec: Spec = {}): Node =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec }) as Node;

/** `plugin`'s verdict on `n` for `p`, with `pods` on the node. */
export const run = (plugin: FilterPlugin, p: Pod, n: Node, pods: Pod[] = []) => {
  const info: NodeInfo = { node: n, pods };
  return plugin.prepare(p, { nodes: [info], namespaceLabels: () => undefined } as ClusterView)(info);
};

export type Toleration = { key?: string; operator?: string; value?: string; effect?: string };
/** A pod with `tolerations`. */
export const tol = (...t: Toleration[]) => pod({ tolerations: t });
