/**
 * Which Nodes the server plays the node agent of (docs/simulated-nodes.md): those labelled
 * `sim.ck.io/simulated: "true"`, the ones `--simulated-nodes` registers and any a user creates
 * with the label (as kwok's managed nodes). Shared by the simulated nodes' controller and the
 * pod subresources the agent answers (pods/log, exec, attach).
 */
import type { Node } from './nodes.schema.js';

/** Label of a Node whose agent the server plays (value "true"). */
export const SIMULATED_NODE_LABEL = 'sim.ck.io/simulated';

/** Whether the server plays `node`'s agent (label {@link SIMULATED_NODE_LABEL} "true"). */
export function isSimulatedNode(node: Pick<Node, 'metadata'>): boolean {
  return node.metadata.labels?.[SIMULATED_NODE_LABEL] === 'true';
}
