/**
 * The taint eviction logic (upstream 1.33 pkg/controller/tainteviction/taint_eviction.go
 * Controller: PodUpdated, NodeUpdated, processPodOnNode, deletePodHandler,
 * addConditionAndDeletePod), over a small client so the sync can be tested without a server.
 * A pod on a node with NoExecute taints it does not all tolerate is deleted at once; one that
 * tolerates them all is deleted after the least tolerationSeconds of the tolerations used
 * (counted from when its eviction was first scheduled), never when one of them has none; the
 * scheduled deletion is cancelled when the taints go or the pod leaves. Before deleting, the
 * pod gets the condition DisruptionTarget=True, reason `DeletionByTaintManager`.
 */
import { rfc3339 } from '../../api/object.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { TimedWorkerQueue } from './timed-workers.js';
import { matchingTolerations, minTolerationMs, noExecuteTaints, sameTaints, type Taint } from './tolerations.js';

type PodCondition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

/** What the eviction logic reads and writes (a lister and the API). */
export interface EvictionClient {
  /** The pods whose spec.nodeName is `nodeName` (from the cache). */
  podsOnNode(nodeName: string): Pod[];
  /** A fresh read of the pod; undefined when it does not exist. */
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
  /** Write the pod's status (pods/status), the pod's uid as precondition. */
  writePodStatus(pod: Pod, status: NonNullable<Pod['status']>): Promise<void>;
  /** Delete the pod (default grace period). */
  deletePod(namespace: string, name: string): Promise<void>;
  /** Record a Normal Event `TaintManagerEviction` about the pod. */
  event(namespace: string, name: string, message: string): void;
}

/** The condition the taint manager sets before deleting (upstream's texts). */
export const DISRUPTION_CONDITION = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByTaintManager',
  message: 'Taint manager: deleting due to NoExecute taint',
} as const;

/** How often a deletion is tried before the work fails (upstream `retries`). */
const RETRIES = 5;

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/**
 * `status` with `cond` set as upstream's UpdatePodCondition does: lastTransitionTime changes
 * only when the status does; undefined when nothing changes.
 */
export function withPodCondition(
  status: NonNullable<Pod['status']>,
  cond: Omit<PodCondition, 'lastTransitionTime' | 'lastProbeTime'>,
  now: Date,
): NonNullable<Pod['status']> | undefined {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === cond.type);
  const old = i < 0 ? undefined : conditions[i]!;
  const lastTransitionTime =
    old && old.status === cond.status && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(now);
  const next: PodCondition = { ...old, ...cond, lastTransitionTime };
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message) return undefined;
  const list = i < 0 ? [...conditions, next] : conditions.map((c, j) => (j === i ? next : c));
  return { ...status, conditions: list };
}

/** The eviction state (tainted nodes, scheduled deletions) and its event handlers; `now` is the clock in ms. */
export class TaintEviction {
  /** NoExecute taints of each node that has some (upstream taintedNodes). */
  readonly taintedNodes = new Map<string, Taint[]>();
  readonly queue: TimedWorkerQueue;

  constructor(
    private readonly client: EvictionClient,
    private readonly now: () => number = Date.now,
  ) {
    this.queue = new TimedWorkerQueue((key) => this.deletePod(key), now);
  }

  /** A pod was added (`oldPod` undefined), changed, or deleted (`newPod` undefined). */
  podUpdated(oldPod: Pod | undefined, newPod: Pod | undefined): void {
    const pod = newPod ?? oldPod;
    if (!pod) return;
    const key = keyOf(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
    if (
      oldPod &&
      newPod &&
      oldPod.spec?.nodeName === newPod.spec?.nodeName &&
      JSON.stringify(oldPod.spec?.tolerations ?? []) === JSON.stringify(newPod.spec?.tolerations ?? [])
    )
      return;
    if (!newPod) {
      this.cancel(key, false);
      return;
    }
    const nodeName = newPod.spec?.nodeName;
    if (!nodeName) return;
    const taints = this.taintedNodes.get(nodeName);
    if (!taints) return;
    this.processPodOnNode(key, newPod, taints, this.now());
  }

  /** A node was added (`oldNode` undefined), changed, or deleted (`newNode` undefined). */
  nodeUpdated(
    oldNode: Pick<Node, 'metadata' | 'spec'> | undefined,
    newNode: Pick<Node, 'metadata' | 'spec'> | undefined,
  ): void {
    const name = (newNode ?? oldNode)?.metadata.name ?? '';
    if (!newNode) {
      this.taintedNodes.delete(name);
      return;
    }
    const taints = noExecuteTaints(newNode.spec?.taints);
    if (oldNode && sameTaints(noExecuteTaints(oldNode.spec?.taints), taints)) return;
    if (taints.length) this.taintedNodes.set(name, taints);
    else this.taintedNodes.delete(name);
    const pods = this.client.podsOnNode(name);
    if (!taints.length) {
      for (const p of pods) this.cancel(keyOf(p.metadata.namespace ?? '', p.metadata.name ?? ''), true);
      return;
    }
    const now = this.now();
    for (const p of pods)
      this.processPodOnNode(keyOf(p.metadata.namespace ?? '', p.metadata.name ?? ''), p, taints, now);
  }

  stop(): void {
    this.queue.stop();
  }

  /** Upstream processPodOnNode. */
  private processPodOnNode(key: string, pod: Pod, taints: readonly Taint[], now: number): void {
    if (!taints.length) {
      this.cancel(key, true);
      return;
    }
    const { allTolerated, used } = matchingTolerations(taints, pod.spec?.tolerations);
    if (!allTolerated) {
      this.cancel(key, true);
      this.queue.addWork(key, now, now);
      return;
    }
    const min = minTolerationMs(used);
    if (min < 0) {
      this.cancel(key, true);
      return;
    }
    let start = now;
    const scheduled = this.queue.get(key);
    if (scheduled) {
      start = scheduled.createdAt;
      if (start + min < now + min) return;
      this.cancel(key, true);
    }
    this.queue.addWork(key, start, start + min);
  }

  private cancel(key: string, withEvent: boolean): void {
    if (this.queue.cancelWork(key) && withEvent) {
      const [ns, name] = key.split('/') as [string, string];
      this.client.event(ns, name, `Cancelling deletion of Pod ${key}`);
    }
  }

  /** Upstream deletePodHandler: an event, then up to {@link RETRIES} tries of condition + delete. */
  private async deletePod(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    this.client.event(ns, name, `Marking for deletion Pod ${key}`);
    let last: unknown;
    for (let i = 0; i < RETRIES; i++) {
      try {
        await this.addConditionAndDelete(ns, name);
        return;
      } catch (err) {
        last = err;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    throw last;
  }

  private async addConditionAndDelete(ns: string, name: string): Promise<void> {
    const pod = await this.client.getPod(ns, name);
    if (!pod) throw new Error(`pod ${ns}/${name} not found`);
    const next = withPodCondition(pod.status ?? {}, DISRUPTION_CONDITION, new Date(this.now()));
    if (next) await this.client.writePodStatus(pod, next);
    await this.client.deletePod(ns, name);
  }
}
