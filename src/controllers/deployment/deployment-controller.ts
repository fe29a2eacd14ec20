/**
 * The deployment controller (upstream pkg/controller/deployment/deployment_controller.go):
 * watches Deployments, ReplicaSets and Pods, queues the Deployment each event concerns, and
 * syncs one at a time: its ReplicaSets claimed (upstream ControllerRefManager.ClaimReplicaSets:
 * orphans matching the selector adopted unless the Deployment is being deleted, owned ones that
 * no longer match released), its pods mapped by ReplicaSet, then syncDeployment. Named
 * `deployment` in --controllers. Reads are consistent reads of the store; writes go through the
 * registry client as the controller's service account.
 */
import type { Logger } from 'pino';
import { ApiError } from '../../errors/api-error.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { asSelector, selects } from '../../resources/apps-common/label-selector.js';
import { deployments } from '../../resources/deployments/deployments.resource.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { replicaSets } from '../../resources/replicasets/replicasets.resource.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { controllerRefOf } from './new-replica-set.js';
import { registryClient } from './registry-client.js';
import { syncDeployment } from './sync-deployment.js';
import type { Deployment, DeploymentClient, ReplicaSet, SyncContext } from './types.js';

/** The controller's name in --controllers. */
export const DEPLOYMENT_CONTROLLER = 'deployment';

export interface DeploymentControllerOptions {
  /** How often every Deployment is synced again (ms; default 30 s). */
  readonly resyncMs?: number;
  /** The clock (tests). */
  readonly now?: () => Date;
  /** Writes (tests pass a recording fake; default: through the registry). */
  readonly client?: DeploymentClient;
}

type Owned = {
  metadata: { ownerReferences?: { controller?: boolean | null; kind: string; name: string; uid: string }[] | null };
};
const controllerOf = (o: Owned) => o.metadata.ownerReferences?.find((r) => r.controller);
const keyOf = (ns: string, name: string) => `${ns}/${name}`;

/** Deployments synced at once (upstream --concurrent-deployment-syncs, 5). */
const CONCURRENT_DEPLOYMENT_SYNCS = 5;

export class DeploymentController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly ctx: SyncContext;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: DeploymentControllerOptions = {},
  ) {
    this.queue = new WorkQueue(
      (k) => k,
      (k) => this.syncKey(k),
      logger,
      CONCURRENT_DEPLOYMENT_SYNCS,
    );
    this.ctx = {
      client: opts.client ?? registryClient(registry, logger),
      now: opts.now ?? (() => new Date()),
      requeueAfter: (d, ms) => this.enqueueAfter(keyOf(d.metadata.namespace ?? '', d.metadata.name ?? ''), ms),
    };
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.registry.of(deployments), signal, (ev) => this.enqueue(ev.object), this.logger);
    void watchLoop(this.registry.of(replicaSets), signal, (ev) => void this.onReplicaSet(ev.object), this.logger);
    void watchLoop(
      this.registry.of(podsResource),
      signal,
      (ev) => {
        if (ev.type === 'DELETED') void this.onPodDeleted(ev.object);
      },
      this.logger,
    );
    resyncLoop(signal, this.opts.resyncMs ?? 30_000, async () => {
      const store = this.registry.of(deployments);
      for (const d of (await store.list('', { predicate: buildPredicate(store.def), resourceVersion: '0' })).items)
        this.enqueue(d);
    });
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private enqueue(d: Deployment): void {
    this.queue.add(keyOf(d.metadata.namespace ?? '', d.metadata.name ?? ''));
  }

  private enqueueAfter(key: string, ms: number): void {
    this.queue.addAfter(key, ms);
  }

  /** addReplicaSet/updateReplicaSet/deleteReplicaSet: the owner, or (an orphan) every Deployment selecting it. */
  private async onReplicaSet(rs: ReplicaSet): Promise<void> {
    const ns = rs.metadata.namespace ?? '';
    const ref = controllerOf(rs);
    if (ref) {
      if (ref.kind === 'Deployment') this.queue.add(keyOf(ns, ref.name));
      return;
    }
    try {
      const store = this.registry.of(deployments);
      for (const d of (await store.list(ns, { predicate: buildPredicate(store.def), resourceVersion: '0' })).items)
        if (this.selectsLabels(d, rs.metadata.labels)) this.enqueue(d);
    } catch {
      // the periodic resync finds it
    }
  }

  /** deletePod: a Deployment whose ReplicaSet lost a pod may proceed (Recreate waits for that). */
  private async onPodDeleted(pod: Pod): Promise<void> {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'ReplicaSet') return;
    try {
      const rs = await this.registry.of(replicaSets).get(pod.metadata.namespace ?? '', ref.name, '0');
      const owner = controllerOf(rs);
      if (owner?.kind === 'Deployment') this.queue.add(keyOf(pod.metadata.namespace ?? '', owner.name));
    } catch {
      // gone with its ReplicaSet
    }
  }

  private selectsLabels(d: Deployment, labels: Record<string, string> | null | undefined): boolean {
    try {
      return selects(asSelector(d.spec?.selector), labels);
    } catch {
      return false;
    }
  }

  private async syncKey(key: string): Promise<void> {
    if (this.abort.signal.aborted) return;
    const [ns, name] = key.split('/') as [string, string];
    let d: Deployment;
    try {
      d = await this.registry.of(deployments).get(ns, name);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
    const rsList = await this.claimReplicaSets(d);
    await syncDeployment(this.ctx, d, rsList, await this.podMap(d, rsList));
  }

  /** getReplicaSetsForDeployment: adopt and release as ClaimReplicaSets does. */
  private async claimReplicaSets(d: Deployment): Promise<ReplicaSet[]> {
    const store = this.registry.of(replicaSets);
    const ns = d.metadata.namespace ?? '';
    const all = (await store.list(ns, { predicate: buildPredicate(store.def) })).items;
    const deleting = Boolean(d.metadata.deletionTimestamp);
    const claimed: ReplicaSet[] = [];
    for (const rs of all) {
      const ref = controllerOf(rs);
      const matches = this.selectsLabels(d, rs.metadata.labels);
      if (ref) {
        if (ref.uid !== d.metadata.uid) continue;
        if (matches) claimed.push(rs);
        else if (!deleting) await this.writeOwner(rs, (refs) => refs.filter((r) => r.uid !== d.metadata.uid));
        continue;
      }
      if (deleting || !matches || rs.metadata.deletionTimestamp) continue;
      const fresh = await this.registry.of(deployments).get(ns, d.metadata.name ?? '');
      if (fresh.metadata.uid !== d.metadata.uid || fresh.metadata.deletionTimestamp) continue;
      const adopted = await this.writeOwner(rs, (refs) => [...refs, controllerRefOf(d)]);
      if (adopted) claimed.push(adopted);
    }
    return claimed;
  }

  /** Rewrite the owner references of `rs` (adopt or release); undefined when it is gone. */
  private async writeOwner(
    rs: ReplicaSet,
    change: (
      refs: NonNullable<ReplicaSet['metadata']['ownerReferences']>,
    ) => NonNullable<ReplicaSet['metadata']['ownerReferences']>,
  ): Promise<ReplicaSet | undefined> {
    try {
      return await this.ctx.client.updateReplicaSet({
        ...rs,
        metadata: { ...rs.metadata, ownerReferences: change(rs.metadata.ownerReferences ?? []) },
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  /** getPodMapForDeployment: the selected pods by the uid of the claimed ReplicaSet controlling them. */
  private async podMap(d: Deployment, rsList: readonly ReplicaSet[]): Promise<Map<string, Pod[]>> {
    const map = new Map<string, Pod[]>(rsList.map((rs) => [rs.metadata.uid ?? '', []]));
    const store = this.registry.of(podsResource);
    const list = await store.list(d.metadata.namespace ?? '', { predicate: buildPredicate(store.def) });
    for (const pod of list.items) {
      const ref = controllerOf(pod);
      if (ref && map.has(ref.uid) && this.selectsLabels(d, pod.metadata.labels)) map.get(ref.uid)!.push(pod);
    }
    return map;
  }
}
