/**
 * The node side of the simulated kubelets: register each simulated Node when it is missing
 * (kubelet_node_status.go registerWithAPIServer), write its status when it starts and every
 * `nodeStatusReportMs` (nodeStatusReportFrequency), and renew its Lease in kube-node-lease
 * every `leaseRenewMs` (pkg/kubelet/nodelease), creating the Lease when it is missing. Writes
 * go through the API as the node's user (`system:node:<name>`, group `system:nodes`).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { leases } from '../../resources/leases/leases.resource.js';
import { nodes } from '../../resources/nodes/nodes.resource.js';
import {
  buildLease,
  buildNode,
  buildNodeStatus,
  microTime,
  NODE_LEASE_NAMESPACE,
  type SimulatedNodeIdentity,
} from './node-status.js';
import type { ResolvedOptions } from './options.js';

/** The user a kubelet writes as (its client certificate's CN and O). */
export function nodeUser(nodeName: string): WriterInfo {
  return { name: `system:node:${nodeName}`, uid: '', groups: ['system:nodes', 'system:authenticated'] };
}

const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

export class NodeHeartbeats {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: ResolvedOptions,
    private readonly identities: readonly SimulatedNodeIdentity[],
  ) {}

  /** Register or report every node, renew every lease, then keep doing so until `signal` aborts. */
  start(signal: AbortSignal): void {
    const queue = (work: () => Promise<void>) => {
      if (!signal.aborted) this.chain = this.chain.then(work);
    };
    queue(() => this.reportAll());
    queue(() => this.renewAll());
    const report = setInterval(() => queue(() => this.reportAll()), this.opts.nodeStatusReportMs);
    const renew = setInterval(() => queue(() => this.renewAll()), this.opts.leaseRenewMs);
    signal.addEventListener('abort', () => [report, renew].forEach(clearInterval), { once: true });
  }

  /** Settles once the writes started so far are done. */
  settled(): Promise<void> {
    return this.chain;
  }

  private async reportAll(): Promise<void> {
    for (const id of this.identities)
      await this.report(id).catch((err) =>
        this.logger.warn({ node: id.name, err: errorMessage(err) }, 'simulated node status write failed'),
      );
  }

  private async renewAll(): Promise<void> {
    for (const id of this.identities)
      await this.renew(id).catch((err) =>
        this.logger.warn({ node: id.name, err: errorMessage(err) }, 'simulated node lease renewal failed'),
      );
  }

  /** Write the node's status (its heartbeat), registering the node when it does not exist. */
  private async report(id: SimulatedNodeIdentity): Promise<void> {
    const store = this.registry.of(nodes);
    const user = nodeUser(id.name);
    const status = store.def.subresources.find((s) => s.name === 'status');
    try {
      await store.update(
        '',
        id.name,
        (cur) => ({
          ...cur,
          status: { ...cur.status, ...buildNodeStatus(this.opts, id, new Date(), cur.status?.conditions ?? []) },
        }),
        status,
        { user },
      );
    } catch (err) {
      if (!notFound(err)) throw err;
      await store.create('', buildNode(this.opts, id, new Date()), { user });
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
