/**
 * The taint eviction controller (upstream 1.33 pkg/controller/tainteviction; kube-controller-
 * manager `--controllers` name `taint-eviction-controller`, on by default upstream): deletes the
 * pods on nodes with NoExecute taints they do not tolerate, after their tolerationSeconds
 * (eviction.ts). It watches Nodes and Pods (keeping a pods-by-node index, upstream's
 * spec.nodeName indexer) and writes as `system:serviceaccount:kube-system:
 * taint-eviction-controller`, recording Events from component `taint-eviction-controller`.
 */
import type { Logger } from 'pino';
import { ApiError } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { events as eventsResource } from '../../resources/events/events.resource.js';
import { nodes as nodesResource } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { watchLoop } from '../watch-loop.js';
import { TaintEviction, type EvictionClient } from './eviction.js';
import { PodsByNode } from './pods-by-node.js';

/** The controller's name under `--controllers`. */
export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';

const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

/** The controller (a leader's controller: `start()`/`stop()`); see the file's comment. */
export class TaintEvictionController {
  private readonly abort = new AbortController();
  private readonly pods = new PodsByNode();
  private readonly nodeTaints = new Map<string, Node>();
  readonly eviction: TaintEviction;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
  ) {
    this.eviction = new TaintEviction(this.client());
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.registry.of(podsResource) as GenericStore<Pod>,
      signal,
      (ev) => {
        const deleted = ev.type === 'DELETED';
        const prev = this.pods.apply(ev.object, deleted);
        this.eviction.podUpdated(prev, deleted ? undefined : ev.object);
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(nodesResource) as GenericStore<Node>,
      signal,
      (ev) => {
        const name = ev.object.metadata.name ?? '';
        const prev = this.nodeTaints.get(name);
        if (ev.type === 'DELETED') this.nodeTaints.delete(name);
        else this.nodeTaints.set(name, ev.object);
        this.eviction.nodeUpdated(prev, ev.type === 'DELETED' ? undefined : ev.object);
      },
      this.logger,
    );
  }

  stop(): void {
    this.abort.abort();
    this.eviction.stop();
  }

  private client(): EvictionClient {
    const user = controllerUser(TAINT_EVICTION_CONTROLLER);
    const pods = this.registry.of(podsResource) as GenericStore<Pod>;
    const status = pods.def.subresources.find((s) => s.name === 'status');
    return {
      podsOnNode: (nodeName) => this.pods.on(nodeName),
      async getPod(namespace, name) {
        try {
          return await pods.get(namespace, name);
        } catch (err) {
          if (notFound(err)) return undefined;
          throw err;
        }
      },
      async writePodStatus(pod, next) {
        await pods.update(
          pod.metadata.namespace ?? '',
          pod.metadata.name ?? '',
          (cur) => {
            if (cur.metadata.uid !== pod.metadata.uid) throw new Error('the pod was replaced');
            return { ...cur, status: next };
          },
          status,
          { user, fieldManager: CONTROLLER_FIELD_MANAGER },
        );
      },
      async deletePod(namespace, name) {
        try {
          await deleteObject(pods, namespace, name, { user });
        } catch (err) {
          if (!notFound(err)) throw err;
        }
      },
      event: (namespace, name, message) => {
        const obj = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name } };
        const ev = legacyEvent(obj, { apiVersion: 'v1', kind: 'Pod' }, TAINT_EVICTION_CONTROLLER, {
          type: 'Normal',
          reason: 'TaintManagerEviction',
          message,
        });
        void recordLegacyEvent(this.registry.of(eventsResource), ev, user, this.logger);
      },
    };
  }
}
