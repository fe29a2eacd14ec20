/**
 * The ReplicaSet and ReplicationController controllers (upstream 1.33
 * pkg/controller/replicaset NewReplicaSetController, and pkg/controller/replication, which runs
 * the same controller over ReplicationControllers): watches of the controllers and of pods feed
 * a de-duplicating work queue of `namespace/name` keys; each key is synced by syncReplicas
 * (sync.ts). A periodic resync queues every controller. Started by the leader; `stop()` ends
 * the watches, timers and queue.
 *
 * Names in `--controllers`: `replicaset`, `replicationcontroller` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { replicaSets } from '../../resources/replicasets/replicasets.resource.js';
import { replicationControllers } from '../../resources/replicationcontrollers/replicationcontrollers.resource.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { events } from '../../resources/events/events.resource.js';
import { eventRecorder } from './events.js';
import { ControllerExpectations } from './expectations.js';
import { podAdded, podDeleted, podUpdated, type PodEventTarget } from './pod-events.js';
import { controllerUser } from '../controller-user.js';
import { registryReplicaClient } from './registry-client.js';
import { syncReplicas, type ReplicaClient } from './sync.js';
import { keyOf, REPLICA_SET_KIND, REPLICATION_CONTROLLER_KIND, type Workload, type WorkloadKind } from './workload.js';

/** Options of a replica controller. */
export interface ReplicaControllerOptions {
  /** How often every controller is queued again (ms; default 30 s). */
  readonly resyncMs?: number;
  /** Most pods created or deleted per sync (default 500, upstream BurstReplicas). */
  readonly burstReplicas?: number;
}

/** The controller of one kind; see {@link ReplicaSetController} and {@link ReplicationManager}. */
/** ReplicaSets (or ReplicationControllers) synced at once (upstream --concurrent-replicaset-syncs, 5). */
const CONCURRENT_SYNCS = 5;

export class ReplicaController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly expectations = new ControllerExpectations();
  /** The last seen version of each pod (`namespace/name`), for update events' old object. */
  private readonly podsSeen = new Map<string, Pod>();
  /** The uid last seen of each controller, to notice a re-created one. */
  private readonly uids = new Map<string, string>();
  private readonly controllers: GenericStore<Workload>;
  private readonly pods: GenericStore<Pod>;
  private readonly client: ReplicaClient;
  private readonly target: PodEventTarget;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly kind: WorkloadKind,
    private readonly opts: ReplicaControllerOptions = {},
  ) {
    this.controllers = (
      kind === REPLICATION_CONTROLLER_KIND ? registry.of(replicationControllers) : registry.of(replicaSets)
    ) as GenericStore<Workload>;
    this.pods = registry.of(podsResource);
    const user = controllerUser(kind.serviceAccount);
    const record = eventRecorder(registry.of(events) as GenericStore, kind, user, logger);
    this.client = registryReplicaClient(this.controllers, this.pods, user, record);
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
      CONCURRENT_SYNCS,
    );
    this.target = {
      kind,
      expectations: this.expectations,
      getController: (ns, name) => this.client.getController(ns, name),
      listControllers: (ns) => this.client.listControllers(ns),
      enqueue: (key, afterMs) => this.enqueue(key, afterMs),
    };
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.controllers, signal, (ev) => this.onController(ev.type, ev.object), this.logger);
    void watchLoop(this.pods, signal, (ev) => this.onPod(ev.type, ev.object), this.logger);
    resyncLoop(signal, this.opts.resyncMs ?? 30_000, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private enqueue(key: string, afterMs = 0): void {
    this.queue.addAfter(key, afterMs);
  }

  /** Upstream addRS/updateRS/deleteRS: every change queues the controller; a delete or re-create forgets its expectations. */
  private onController(type: string, obj: Workload): void {
    const key = keyOf(obj);
    const uid = obj.metadata.uid ?? '';
    if (type === 'DELETED' || (this.uids.has(key) && this.uids.get(key) !== uid)) this.expectations.delete(key);
    if (type === 'DELETED') this.uids.delete(key);
    else this.uids.set(key, uid);
    this.enqueue(key);
  }

  private onPod(type: string, pod: Pod): void {
    const key = keyOf(pod);
    const old = this.podsSeen.get(key);
    if (type === 'DELETED') this.podsSeen.delete(key);
    else this.podsSeen.set(key, pod);
    const handled =
      type === 'DELETED'
        ? podDeleted(pod, this.target)
        : old && old.metadata.uid === pod.metadata.uid
          ? podUpdated(old, pod, this.target)
          : podAdded(pod, this.target);
    handled.catch((err) => this.logger.debug({ pod: key, err: errorMessage(err) }, 'pod event not handled'));
  }

  private async resync(): Promise<void> {
    try {
      const all = await this.controllers.list('', { predicate: buildPredicate(this.controllers.def) });
      for (const obj of all.items) this.enqueue(keyOf(obj));
    } catch (err) {
      this.logger.warn({ kind: this.kind.kind, err: errorMessage(err) }, 'replica controller resync failed');
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const result = await syncReplicas(key.slice(0, slash), key.slice(slash + 1), {
      kind: this.kind,
      client: this.client,
      expectations: this.expectations,
      burstReplicas: this.opts.burstReplicas,
    });
    if (result.requeueAfterMs) this.enqueue(key, result.requeueAfterMs);
  }
}

/** The ReplicaSet controller (`replicaset` in --controllers). */
export class ReplicaSetController extends ReplicaController {
  constructor(registry: ResourceRegistry, logger: Logger, opts: ReplicaControllerOptions = {}) {
    super(registry, logger, REPLICA_SET_KIND, opts);
  }
}

/** The ReplicationController controller, upstream's ReplicationManager (`replicationcontroller` in --controllers). */
export class ReplicationManager extends ReplicaController {
  constructor(registry: ResourceRegistry, logger: Logger, opts: ReplicaControllerOptions = {}) {
    super(registry, logger, REPLICATION_CONTROLLER_KIND, opts);
  }
}
