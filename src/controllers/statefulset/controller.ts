/**
 * The StatefulSet controller (upstream 1.33 pkg/controller/statefulset/stateful_set.go
 * NewStatefulSetController): watches of StatefulSets and pods feed a de-duplicating work queue
 * of `namespace/name` keys, each synced by syncStatefulSet (sync.ts); a pod wakes its
 * controller, an orphan every set selecting it (the replica controllers' handlers,
 * replicaset/pod-events.ts, serve here too as upstream's are the same); a periodic resync
 * queues every set. Started by the leader; `stop()` ends the watches, timers and queue.
 *
 * Name in `--controllers`: `statefulset` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { labelSelectorOf, type LabelSelectorObject } from '../../api/label-selector.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { statefulSets } from '../../resources/statefulsets/statefulsets.resource.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { podAdded, podDeleted, podUpdated, type PodEventTarget } from '../replicaset/pod-events.js';
import { keyOf, type Workload, type WorkloadKind } from '../replicaset/workload.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import type { StatefulSetClient } from './client.js';
import { STATEFUL_SET_CONTROLLER, STATEFUL_SET_KIND } from './kind.js';
import { registryStatefulSetClient } from './registry-client.js';
import { syncStatefulSet } from './sync.js';

/** Options of the controller. */
export interface StatefulSetControllerOptions {
  /** How often every set is queued again (ms; default 30 s). */
  readonly resyncMs?: number;
  /** Feature MaxUnavailableStatefulSet (default: the gate the server's StatefulSet defaulting follows, on). */
  readonly maxUnavailableStatefulSet?: boolean;
}

/** The kind as the shared pod handlers see it. */
const SET_KIND: WorkloadKind = {
  ...STATEFUL_SET_KIND,
  controllerName: 'statefulset',
  serviceAccount: STATEFUL_SET_CONTROLLER,
  selectorOf: (obj) => {
    const sel = (obj as unknown as StatefulSet).spec?.selector as LabelSelectorObject | null | undefined;
    return sel ? labelSelectorOf(sel) : null;
  },
};

/** The StatefulSet controller (`statefulset` in --controllers). */
export class StatefulSetController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  /** The last seen version of each pod (`namespace/name`), for update events' old object. */
  private readonly podsSeen = new Map<string, Pod>();
  private readonly sets: GenericStore<StatefulSet>;
  private readonly pods: GenericStore<Pod>;
  private readonly client: StatefulSetClient;
  private readonly target: PodEventTarget;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: StatefulSetControllerOptions = {},
  ) {
    this.sets = registry.of(statefulSets);
    this.pods = registry.of(podsResource);
    this.client = registryStatefulSetClient(registry, logger);
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
    );
    this.target = {
      kind: SET_KIND,
      expectations: new ControllerExpectations(), // upstream's StatefulSet controller keeps none
      getController: async (ns, name) => (await this.client.getSet(ns, name)) as unknown as Workload | undefined,
      listControllers: async (ns) => (await this.client.listSets(ns)) as unknown as Workload[],
      enqueue: (key, afterMs) => this.enqueue(key, afterMs),
    };
  }

  /** Start the watches of sets and pods and the periodic resync. */
  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.sets, signal, (ev) => this.enqueue(keyOf(ev.object)), this.logger);
    void watchLoop(this.pods, signal, (ev) => this.onPod(ev.type, ev.object), this.logger);
    resyncLoop(signal, this.opts.resyncMs ?? 30_000, () => this.resync());
  }

  /** End the watches, the resync, the queue and pending delayed syncs. */
  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private enqueue(key: string, afterMs = 0): void {
    this.queue.addAfter(key, afterMs);
  }

  /** Upstream addPod / updatePod / deletePod. */
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
      for (const set of await this.client.listSets('')) this.enqueue(keyOf(set));
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'statefulset controller resync failed');
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const result = await syncStatefulSet(key.slice(0, slash), key.slice(slash + 1), {
      client: this.client,
      maxUnavailableEnabled: this.opts.maxUnavailableStatefulSet,
    });
    if (result.requeueAfterMs) this.enqueue(key, result.requeueAfterMs);
  }
}
