/**
 * The `simulated-nodes` controller (a leader's controller; `--simulated-nodes=N`, config
 * `simulatedNodes`): keeps N Nodes `sim-node-0` ... with a kubelet's status and Lease
 * heartbeats (node-heartbeat.ts) and plays the kubelet for the pods bound to them
 * (pod-agent.ts), in the manner of kwok: everything through the API, as a kubelet writes it.
 * Nodes a user creates with the label `sim.ck.io/simulated: "true"` are played too (as kwok
 * plays the nodes it selects): their status is filled in where the user left it empty, they get
 * a pod CIDR when they have none, and their pods run. The annotation `sim.ck.io/heartbeat:
 * paused` on a played node stops its heartbeats and its pods' status updates (a node that went
 * away; deletions of its pods still complete), until it is removed. With N = 0 and no labelled
 * Node it writes nothing. Settings and stage timings: options.ts.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { nodes as nodesResource } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { pods } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { WatchEvent } from '../../storage/types.js';
import { controllerUser } from '../controller-user.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { NodeHeartbeats } from './node-heartbeat.js';
import {
  heartbeatPaused,
  labelledSimulated,
  nodeIdentity,
  userNodeIdentity,
  type SimulatedNodeIdentity,
} from './node-status.js';
import { resolveOptions, type ResolvedOptions, type SimulatedNodesOptions } from './options.js';
import { PodAgent } from './pod-agent.js';

/** The controller's name under `--controllers`. */
export const SIMULATED_NODES_CONTROLLER = 'simulated-nodes';

/** A Node a user created, played with its own pod agent. */
interface UserNode {
  readonly id: SimulatedNodeIdentity;
  readonly slot: number;
  readonly agent: PodAgent;
}

/** The controller (a leader's controller: `start()`/`stop()`); see the file's comment. */
export class SimulatedNodesController {
  private readonly abort = new AbortController();
  private readonly opts: ResolvedOptions;
  private readonly identities: readonly SimulatedNodeIdentity[];
  private readonly heartbeats: NodeHeartbeats;
  private readonly agent: PodAgent;
  private readonly userNodes = new Map<string, UserNode>();
  private readonly podStore: GenericStore<Pod>;

  /**
   * `options.count` nodes with the given settings. Throws RangeError when the node range or
   * the cluster CIDR cannot hold that many nodes, Error for a malformed CIDR.
   */
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    options: SimulatedNodesOptions,
  ) {
    this.opts = resolveOptions(options);
    this.identities = Array.from({ length: this.opts.count }, (_, i) => nodeIdentity(this.opts, i));
    this.heartbeats = new NodeHeartbeats(registry, logger, this.opts, this.identities);
    this.agent = new PodAgent(registry, logger, this.opts, this.identities);
    this.podStore = registry.of(pods) as GenericStore<Pod>;
  }

  /** The simulated nodes' names, addresses and pod CIDRs (the numbered ones, then the users'). */
  get nodes(): readonly SimulatedNodeIdentity[] {
    return [...this.identities, ...[...this.userNodes.values()].map((u) => u.id)];
  }

  start(): void {
    const signal = this.abort.signal;
    this.heartbeats.start(signal);
    void watchLoop(this.registry.of(nodesResource) as GenericStore<Node>, signal, (ev) => this.onNode(ev), this.logger);
    void watchLoop(this.podStore, signal, (ev) => this.onPod(ev), this.logger);
    resyncLoop(signal, this.opts.resyncMs, async () => {
      // A paused node's pods are not re-examined (pod-agent resyncs all of its pods at once).
      if (this.nodes.some((n) => this.heartbeats.paused(n.name))) return;
      this.agent.resync();
      for (const u of this.userNodes.values()) u.agent.resync();
    });
  }

  stop(): void {
    this.abort.abort();
    this.agent.stop();
    for (const u of this.userNodes.values()) u.agent.stop();
  }

  /** Settles once the node writes started so far are done (for orderly shutdown in tests). */
  settled(): Promise<void> {
    return this.heartbeats.settled();
  }

  /** A pod event, handed to the agents unless the pod's node is paused (deletions always). */
  private onPod(ev: WatchEvent<Pod>): void {
    const pod = ev.object;
    const node = pod.spec?.nodeName ?? '';
    if (this.heartbeats.paused(node) && ev.type !== 'DELETED' && !pod.metadata.deletionTimestamp) return;
    this.agent.onEvent(ev);
    this.userNodes.get(node)?.agent.onEvent(ev);
  }

  private onNode(ev: WatchEvent<Node>): void {
    const node = ev.object;
    const name = node.metadata.name ?? '';
    const wasPaused = this.heartbeats.paused(name);
    const numbered = this.identities.some((id) => id.name === name);
    if (ev.type === 'DELETED' || (!numbered && !labelledSimulated(node))) {
      this.heartbeats.observe(name, ev.type === 'DELETED' ? undefined : node);
      const user = this.userNodes.get(name);
      if (user) {
        user.agent.stop();
        this.userNodes.delete(name);
        this.heartbeats.removeUserNode(name);
      }
      return;
    }
    if (!numbered && !this.userNodes.has(name) && !this.addUserNode(node)) return;
    this.heartbeats.observe(name, node);
    if (wasPaused && !heartbeatPaused(node)) void this.replayPods(name);
  }

  /** Start playing a user's Node; false when no slot is left for it. */
  private addUserNode(node: Node): boolean {
    const used = new Set([...this.userNodes.values()].map((u) => u.slot));
    let slot = this.opts.count;
    while (used.has(slot)) slot++;
    let id: SimulatedNodeIdentity;
    try {
      id = userNodeIdentity(this.opts, node, slot);
    } catch (err) {
      this.logger.warn({ node: node.metadata.name, err: errorMessage(err) }, 'cannot play the simulated node');
      return false;
    }
    const agent = new PodAgent(this.registry, this.logger, this.opts, [id]);
    this.userNodes.set(id.name, { id, slot, agent });
    this.heartbeats.addUserNode(id);
    if (!node.spec?.podCIDR) void this.assignPodCidr(id);
    void this.replayPods(id.name);
    this.logger.info({ node: id.name }, 'playing a simulated node a user created');
    return true;
  }

  /** Set spec.podCIDR(s) of a user's Node as the node IPAM controller would. */
  private async assignPodCidr(id: SimulatedNodeIdentity): Promise<void> {
    const store = this.registry.of(nodesResource) as GenericStore<Node>;
    await store
      .update(
        '',
        id.name,
        (cur) =>
          cur.spec?.podCIDR ? cur : { ...cur, spec: { ...cur.spec, podCIDR: id.podCIDR, podCIDRs: [id.podCIDR] } },
        undefined,
        { user: controllerUser('node-controller') },
      )
      .catch((err) => this.logger.warn({ node: id.name, err: errorMessage(err) }, 'pod CIDR not assigned'));
  }

  /** Hand the pods already on `nodeName` to the agents (a node newly played, or back from a pause). */
  private async replayPods(nodeName: string): Promise<void> {
    try {
      const list = await this.podStore.list('', { predicate: buildPredicate(this.podStore.def), resourceVersion: '0' });
      for (const pod of list.items)
        if (pod.spec?.nodeName === nodeName) this.onPod({ type: 'ADDED', object: pod } as WatchEvent<Pod>);
    } catch (err) {
      this.logger.warn({ node: nodeName, err: errorMessage(err) }, 'listing the pods of a simulated node failed');
    }
  }
}
