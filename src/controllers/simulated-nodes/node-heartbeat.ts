/**
 * The node side of the simulated kubelets: register each numbered simulated Node when it is
 * missing (kubelet_node_status.go registerWithAPIServer), write its status when it starts, every
 * `nodeStatusReportMs` (nodeStatusReportFrequency), and sooner when the stored conditions are not
 * what the kubelet reports (after the node lifecycle controller set them Unknown: upstream's
 * nodeStatusHasChanged, checked every `leaseRenewMs`); renew its Lease in kube-node-lease every
 * `leaseRenewMs` (pkg/kubelet/nodelease), creating the Lease when it is missing. Nodes a user
 * created with the simulated label are played the same way but never registered again once
 * deleted. A node annotated `sim.ck.io/heartbeat: paused` gets no status write nor Lease
 * renewal (a kubelet that went away) until the annotation goes. Writes go through the API as
 * the node's user (`system:node:<name>`, group `system:nodes`).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { leases } from '../../resources/leases/leases.resource.js';
import { nodes } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import {
  buildLease,
  buildNode,
  buildNodeStatus,
  conditionsDrifted,
  heartbeatPaused,
  microTime,
  NODE_LEASE_NAMESPACE,
  userNodeStatus,
  type SimulatedNodeIdentity,
} from './node-status.js';
import type { ResolvedOptions } from './options.js';

/** The user a kubelet writes as (its client certificate's CN and O). */
export function nodeUser(nodeName: string): WriterInfo {
  return { name: `system:node:${nodeName}`, uid: '', groups: ['system:nodes', 'system:authenticated'] };
}

const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

interface Played {
  readonly id: SimulatedNodeIdentity;
  /** A Node a user created (not registered again when deleted; its own fields kept). */
  readonly user: boolean;
  /** When its status was last written (ms since the epoch). */
  reportedAt: number;
}

/** The heartbeats of the played nodes (see the file's comment); `start` begins them. */
export class NodeHeartbeats {
  private chain: Promise<void> = Promise.resolve();
  private readonly played = new Map<string, Played>();
  /** The Nodes as last seen by the controller's watch (annotations, conditions). */
  private readonly seen = new Map<string, Node>();
  private signal?: AbortSignal;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: ResolvedOptions,
    identities: readonly SimulatedNodeIdentity[],
  ) {
    for (const id of identities) this.played.set(id.name, { id, user: false, reportedAt: 0 });
  }

  /** Register or report every node, renew every lease, then keep doing so until `signal` aborts. */
  start(signal: AbortSignal): void {
    this.signal = signal;
    this.queue(() => this.primeSeen());
    this.queue(() => this.reportAll(true));
    this.queue(() => this.renewAll());
    const report = setInterval(
      () => this.queue(() => this.reportAll(false)),
      Math.min(this.opts.nodeStatusReportMs, this.opts.leaseRenewMs),
    );
    const renew = setInterval(() => this.queue(() => this.renewAll()), this.opts.leaseRenewMs);
    signal.addEventListener('abort', () => [report, renew].forEach(clearInterval), { once: true });
  }

  /** Read the Nodes once (from the watch cache) so a node paused before a new leader started stays paused. */
  private async primeSeen(): Promise<void> {
    const store = this.registry.of(nodes);
    try {
      const list = await store.list('', { predicate: buildPredicate(store.def), resourceVersion: '0' });
      for (const node of list.items)
        if (!this.seen.has(node.metadata.name ?? '')) this.seen.set(node.metadata.name ?? '', node);
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'simulated nodes: listing the Nodes failed');
    }
  }

  /** Settles once the writes started so far are done. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Play a Node a user created (reported and renewed at once). */
  addUserNode(id: SimulatedNodeIdentity): void {
    if (this.played.has(id.name)) return;
    this.played.set(id.name, { id, user: true, reportedAt: 0 });
    this.queue(() => this.beat(id.name));
  }

  /** Stop playing a user's Node. */
  removeUserNode(name: string): void {
    if (this.played.get(name)?.user) this.played.delete(name);
  }

  /** A Node as the watch saw it (undefined: deleted); a heartbeat resumed is reported at once. */
  observe(name: string, node: Node | undefined): void {
    const was = heartbeatPaused(this.seen.get(name));
    if (node) this.seen.set(name, node);
    else this.seen.delete(name);
    if (node && was && !heartbeatPaused(node) && this.played.has(name)) this.queue(() => this.beat(name));
  }

  /** Whether the node's heartbeat is paused. */
  paused(name: string): boolean {
    return heartbeatPaused(this.seen.get(name));
  }

  private queue(work: () => Promise<void>): void {
    if (!this.signal?.aborted) this.chain = this.chain.then(work);
  }

  /** Report and renew one node now. */
  private async beat(name: string): Promise<void> {
    const p = this.played.get(name);
    if (!p || this.paused(name)) return;
    await this.report(p).catch((err) => this.warn(name, 'status write', err));
    await this.renew(p.id).catch((err) => this.warn(name, 'lease renewal', err));
  }

  private warn(node: string, what: string, err: unknown): void {
    this.logger.warn({ node, err: errorMessage(err) }, `simulated node ${what} failed`);
  }

  /** Report the nodes due: all at start, then those past the report period or whose conditions drifted. */
  private async reportAll(all: boolean): Promise<void> {
    const now = Date.now();
    for (const p of [...this.played.values()]) {
      if (this.paused(p.id.name)) continue;
      const due =
        all ||
        now - p.reportedAt >= this.opts.nodeStatusReportMs ||
        (this.seen.has(p.id.name) && conditionsDrifted(this.seen.get(p.id.name)?.status));
      if (due) await this.report(p).catch((err) => this.warn(p.id.name, 'status write', err));
    }
  }

  private async renewAll(): Promise<void> {
    for (const p of [...this.played.values()])
      if (!this.paused(p.id.name)) await this.renew(p.id).catch((err) => this.warn(p.id.name, 'lease renewal', err));
  }

  /** Write the node's status (its heartbeat), registering a numbered node when it does not exist. */
  private async report(p: Played): Promise<void> {
    const { id } = p;
    const store = this.registry.of(nodes);
    const user = nodeUser(id.name);
    const status = store.def.subresources.find((s) => s.name === 'status');
    const now = new Date();
    p.reportedAt = now.getTime();
    try {
      await store.update(
        '',
        id.name,
        (cur) => ({
          ...cur,
          status: p.user
            ? userNodeStatus(this.opts, id, now, cur.status)
            : { ...cur.status, ...buildNodeStatus(this.opts, id, now, cur.status?.conditions ?? []) },
        }),
        status,
        { user },
      );
    } catch (err) {
      if (!notFound(err) || p.user) throw err;
      await store.create('', buildNode(this.opts, id, now), { user });
      this.logger.info({ node: id.name }, 'registered simulated node');
    }
  }

  /** Renew the node's lease, creating it (owned by the Node) when it does not exist. */
  private async renew(id: SimulatedNodeIdentity): Promise<void> {
    const store = this.registry.of(leases);
    const user = nodeUser(id.name);
    const now = new Date();
    try {
      await store.update(
        NODE_LEASE_NAMESPACE,
        id.name,
        (cur) => ({
          ...cur,
          spec: {
            ...cur.spec,
            holderIdentity: id.name,
            leaseDurationSeconds: this.opts.leaseDurationSeconds,
            renewTime: microTime(now),
          },
        }),
        undefined,
        { user },
      );
    } catch (err) {
      if (!notFound(err)) throw err;
      const node = await this.registry.of(nodes).get('', id.name);
      await store.create(NODE_LEASE_NAMESPACE, buildLease(this.opts, id.name, node.metadata.uid ?? '', now), { user });
    }
  }
}
