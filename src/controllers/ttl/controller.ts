/**
 * The TTL controller (upstream 1.33 pkg/controller/ttl; kube-controller-manager `--controllers`
 * name `ttl`, on by default upstream): counts the Nodes and keeps each Node's
 * `node.alpha.kubernetes.io/ttl` annotation at the table's value for that count (ttl.ts),
 * writing as `system:serviceaccount:kube-system:ttl-controller`.
 */
import type { Logger } from 'pino';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { nodes as nodesResource } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { needsTtlUpdate, TTL_ANNOTATION, TtlSizer } from './ttl.js';

/** The controller's name under `--controllers`. */
export const TTL_CONTROLLER = 'ttl';

/** The controller (a leader's controller: `start()`/`stop()`); see the file's comment. */
export class TtlController {
  private readonly abort = new AbortController();
  private readonly known = new Set<string>();
  private readonly nodes: GenericStore<Node>;
  private readonly queue: WorkQueue<string>;
  private readonly user = controllerUser('ttl-controller');
  readonly sizer = new TtlSizer();

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    opts: { readonly workers?: number } = {},
  ) {
    this.nodes = registry.of(nodesResource) as GenericStore<Node>;
    this.queue = new WorkQueue(
      (k) => k,
      (k) => this.updateNodeIfNeeded(k),
      logger,
      opts.workers ?? 5,
    );
  }

  start(): void {
    void watchLoop(
      this.nodes,
      this.abort.signal,
      (ev) => {
        const name = ev.object.metadata.name ?? '';
        const before = this.sizer.desiredTtlSeconds;
        if (ev.type === 'DELETED') {
          if (this.known.delete(name)) this.sizer.deleteNode();
        } else if (!this.known.has(name)) {
          this.known.add(name);
          this.sizer.addNode();
        }
        if (ev.type !== 'DELETED') this.queue.add(name);
        // Upstream waits for each node's next update (or the informer's resync) to pass on a new
        // TTL; here every node is queued at once when the TTL changes.
        if (before !== this.sizer.desiredTtlSeconds) for (const n of this.known) this.queue.add(n);
      },
      this.logger,
    );
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  /** Upstream updateNodeIfNeeded: set the annotation when it differs from the desired TTL. */
  private async updateNodeIfNeeded(name: string): Promise<void> {
    let node: Node;
    try {
      node = await this.nodes.get('', name, '0');
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
    const desired = this.sizer.desiredTtlSeconds;
    if (!needsTtlUpdate(node.metadata.annotations, desired)) return;
    await this.nodes.update(
      '',
      name,
      (cur) => ({
        ...cur,
        metadata: { ...cur.metadata, annotations: { ...cur.metadata.annotations, [TTL_ANNOTATION]: String(desired) } },
      }),
      undefined,
      { user: this.user, fieldManager: CONTROLLER_FIELD_MANAGER },
    );
  }
}
