/**
 * The DaemonSet controller (upstream 1.33 pkg/controller/daemon/daemon_controller.go
 * NewDaemonSetsController and its event handlers): watches of DaemonSets, ControllerRevisions,
 * pods and nodes feed a de-duplicating work queue of `namespace/name` keys, each synced by
 * syncDaemonSet (sync.ts). Pod events observe the expectations of the controller that owns the
 * pod (orphans wake every DaemonSet selecting them); node events wake the DaemonSets whose
 * eligibility of that node changed. A periodic resync queues every DaemonSet and collects the
 * failed-pod back-off. Started by the leader; `stop()` ends the watches, timers and queue.
 *
 * Name in `--controllers`: `daemonset` (on by default upstream).
 */
import type { Logger } from 'pino';
import { matchesLabels } from '../../api/label-selector.js';
import type { ApiObject } from '../../api/object.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { controllerRevisions } from '../../resources/controllerrevisions/controllerrevisions.resource.js';
import { daemonSets } from '../../resources/daemonsets/daemonsets.resource.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import { nodes as nodesResource } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { isPodReady } from '../replicaset/pod-ranking.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { FailedPodsBackoff } from './failed-pods-backoff.js';
import { nodeShouldRunDaemonPod } from './node-should-run.js';
import { selectorOf } from './pods.js';
import { registryDaemonSetClient } from './registry-client.js';
import { syncDaemonSet } from './sync.js';
import type { DaemonSetClient, SyncDeps } from './types.js';

/** The controller's name in --controllers. */
export const DAEMONSET_CONTROLLER = 'daemonset';

/** Options of the controller. */
export interface DaemonSetControllerOptions {
  /** How often every DaemonSet is queued again (ms; default 30 s). */
  readonly resyncMs?: number;
  /** Reads and writes (tests; default: the registry's stores). */
  readonly client?: DaemonSetClient;
}

const keyOf = (o: ApiObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
const controllerOf = (o: ApiObject) => o.metadata.ownerReferences?.find((r) => r.controller === true);

export class DaemonSetController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly deps: SyncDeps;
  private readonly dsStore: GenericStore<DaemonSet>;
  /** The last seen version of each pod and node, for update events' old object. */
  private readonly podsSeen = new Map<string, Pod>();
  private readonly nodesSeen = new Map<string, Node>();
  /** The DaemonSets as last seen, by key (upstream's dsLister for the event handlers). */
  private readonly sets = new Map<string, DaemonSet>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: DaemonSetControllerOptions = {},
  ) {
    this.dsStore = registry.of(daemonSets);
    this.queue = new WorkQueue(
      (k) => k,
      (k) => this.sync(k),
      logger,
    );
    this.deps = {
      client: opts.client ?? registryDaemonSetClient(registry, logger),
      creations: new ControllerExpectations(),
      deletions: new ControllerExpectations(),
      backoff: new FailedPodsBackoff(),
      enqueueAfter: (key, ms) => this.enqueue(key, ms),
    };
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.dsStore, signal, (ev) => this.onDaemonSet(ev.type, ev.object), this.logger);
    void watchLoop(this.registry.of(controllerRevisions), signal, (ev) => this.onOwned(ev.object), this.logger);
    void watchLoop(this.registry.of(podsResource), signal, (ev) => this.onPod(ev.type, ev.object), this.logger);
    void watchLoop(this.registry.of(nodesResource), signal, (ev) => this.onNode(ev.type, ev.object), this.logger);
    resyncLoop(signal, this.opts.resyncMs ?? 30_000, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private enqueue(key: string, afterMs = 0): void {
    this.queue.addAfter(key, afterMs);
  }

  /** Upstream add/update/deleteDaemonset: queue it; a delete or re-create forgets its expectations. */
  private onDaemonSet(type: string, ds: DaemonSet): void {
    const key = keyOf(ds);
    const prev = this.sets.get(key);
    if (type === 'DELETED' || (prev && prev.metadata.uid !== ds.metadata.uid)) {
      this.deps.creations.delete(key);
      this.deps.deletions.delete(key);
    }
    if (type === 'DELETED') this.sets.delete(key);
    else this.sets.set(key, ds);
    this.enqueue(key);
  }

  /** Upstream resolveControllerRef: the DaemonSet a controllerRef names, if it is the same one. */
  private resolve(namespace: string, ref: ReturnType<typeof controllerOf>): DaemonSet | undefined {
    if (!ref || ref.kind !== 'DaemonSet') return undefined;
    const ds = this.sets.get(`${namespace}/${ref.name}`);
    return ds?.metadata.uid === ref.uid ? ds : undefined;
  }

  /** The DaemonSets of the namespace whose selector matches `labels` (upstream GetPodDaemonSets). */
  private selecting(namespace: string, labels: Readonly<Record<string, string>> | null | undefined): DaemonSet[] {
    return [...this.sets.values()].filter((ds) => {
      if (ds.metadata.namespace !== namespace) return false;
      try {
        const sel = selectorOf(ds);
        return sel !== null && sel.length > 0 && matchesLabels(sel, labels);
      } catch {
        return false;
      }
    });
  }

  /** Upstream add/update/deleteHistory: the owner, or for an orphan every DaemonSet selecting it. */
  private onOwned(obj: ApiObject): void {
    const ns = obj.metadata.namespace ?? '';
    const ref = controllerOf(obj);
    const owners = ref
      ? [this.resolve(ns, ref)].filter((d) => d !== undefined)
      : this.selecting(ns, obj.metadata.labels);
    for (const ds of owners) this.enqueue(keyOf(ds));
  }

  /** Upstream addPod/updatePod/deletePod. */
  private onPod(type: string, pod: Pod): void {
    const key = keyOf(pod);
    const old = this.podsSeen.get(key);
    if (type === 'DELETED') this.podsSeen.delete(key);
    else this.podsSeen.set(key, pod);
    const ns = pod.metadata.namespace ?? '';
    const ref = controllerOf(pod);
    const oldRef = old && controllerOf(old);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const prev = this.resolve(ns, oldRef);
      if (prev) this.enqueue(keyOf(prev));
    }
    const ds = this.resolve(ns, ref);
    if (!ref) {
      // An orphan: DaemonSets that may adopt it look again (not for a delete).
      if (type !== 'DELETED') for (const d of this.selecting(ns, pod.metadata.labels)) this.enqueue(keyOf(d));
      return;
    }
    if (!ds) return;
    const dsKey = keyOf(ds);
    if (type === 'DELETED' || pod.metadata.deletionTimestamp) this.deps.deletions.deletionObserved(dsKey, key);
    else if (!old || old.metadata.uid !== pod.metadata.uid) this.deps.creations.creationObserved(dsKey);
    this.enqueue(dsKey);
    const minReady = ds.spec?.minReadySeconds ?? 0;
    if (old && minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.enqueue(dsKey, minReady * 1000 + 1000);
  }

  /** Upstream addNode/updateNode: DaemonSets for which the node's eligibility changed. */
  private onNode(type: string, node: Node): void {
    const name = node.metadata.name ?? '';
    const old = this.nodesSeen.get(name);
    if (type === 'DELETED') {
      this.nodesSeen.delete(name);
      return; // upstream has no node delete handler: the pod GC removes the pods
    }
    this.nodesSeen.set(name, node);
    for (const ds of this.sets.values()) {
      const now = nodeShouldRunDaemonPod(node, ds);
      if (!old) {
        if (now.shouldRun) this.enqueue(keyOf(ds));
        continue;
      }
      const before = nodeShouldRunDaemonPod(old, ds);
      if (before.shouldRun !== now.shouldRun || before.shouldContinueRunning !== now.shouldContinueRunning)
        this.enqueue(keyOf(ds));
    }
  }

  private async resync(): Promise<void> {
    this.deps.backoff.gc(Date.now());
    try {
      const all = await this.dsStore.list('', { predicate: buildPredicate(this.dsStore.def), resourceVersion: '0' });
      for (const ds of all.items) {
        this.sets.set(keyOf(ds), ds);
        this.enqueue(keyOf(ds));
      }
    } catch (err) {
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'daemonset resync failed');
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    await syncDaemonSet(key.slice(0, slash), key.slice(slash + 1), this.deps);
  }
}
