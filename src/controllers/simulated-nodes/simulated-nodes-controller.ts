/**
 * The `simulated-nodes` controller (a leader's controller; `--simulated-nodes=N`, config
 * `simulatedNodes`): keeps N Nodes `sim-node-0` ... with a kubelet's status and Lease
 * heartbeats (node-heartbeat.ts) and plays the kubelet for the pods bound to them
 * (pod-agent.ts), in the manner of kwok: everything through the API, as a kubelet writes it.
 * With N = 0 it does nothing at all. Settings and stage timings: options.ts.
 */
import type { Logger } from 'pino';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { pods } from '../../resources/pods/pods.resource.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { NodeHeartbeats } from './node-heartbeat.js';
import { nodeIdentity, type SimulatedNodeIdentity } from './node-status.js';
import { resolveOptions, type ResolvedOptions, type SimulatedNodesOptions } from './options.js';
import { PodAgent } from './pod-agent.js';

/** The controller's name under `--controllers`. */
export const SIMULATED_NODES_CONTROLLER = 'simulated-nodes';

export class SimulatedNodesController {
  private readonly abort = new AbortController();
  private readonly opts: ResolvedOptions;
  private readonly identities: readonly SimulatedNodeIdentity[];
  private readonly heartbeats: NodeHeartbeats;
  private readonly agent: PodAgent;

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
  }

  /** The simulated nodes' names, addresses and pod CIDRs. */
  get nodes(): readonly SimulatedNodeIdentity[] {
    return this.identities;
  }

  start(): void {
    if (this.opts.count === 0) return;
    const signal = this.abort.signal;
    this.heartbeats.start(signal);
    void watchLoop(this.registry.of(pods), signal, (ev) => this.agent.onEvent(ev), this.logger);
    resyncLoop(signal, this.opts.resyncMs, async () => this.agent.resync());
  }

  stop(): void {
    this.abort.abort();
    this.agent.stop();
  }

  /** Settles once the node writes started so far are done (for orderly shutdown in tests). */
  settled(): Promise<void> {
    return this.heartbeats.settled();
  }
}
