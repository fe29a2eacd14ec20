/**
 * The disruption controller (upstream 1.33 pkg/controller/disruption NewDisruptionController,
 * Run): keeps every PodDisruptionBudget's status (currentHealthy, desiredHealthy,
 * expectedPods, disruptionsAllowed, disruptedPods, observedGeneration and the
 * DisruptionAllowed condition), which the `pods/eviction` subresource reads and decrements.
 *
 * A budget is queued when it changes, when a pod its selector matches is added, changed or
 * deleted (upstream getPdbForPod: a nil, empty or invalid selector matches no pod here; a pod
 * matched by several budgets queues each and gets one MultiplePodDisruptionBudgets warning),
 * when its earliest disruptedPods entry expires (upstream's recheck queue), and on a periodic
 * resync. Each key is synced by syncDisruptionBudget (sync.ts); failures are retried with
 * backoff. A pod whose DisruptionTarget condition stays True without its deletion is queued on
 * a second queue, which sets the condition False once stale (stale-disruption.ts). Started by
 * the leader; `stop()` ends the watches, timers and queues.
 *
 * Name in `--controllers`: `disruption` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { selectsForEviction } from '../../resources/apps-common/label-selector.js';
import { podDisruptionBudgets } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.resource.js';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { keyOf } from '../replicaset/workload.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { registryDisruptionClient } from './registry-client.js';
import { STALE_POD_DISRUPTION_TIMEOUT_MS, staleDisruptionWait, syncStalePodDisruption } from './stale-disruption.js';
import { syncDisruptionBudget } from './sync.js';
import type { DisruptionClient } from './types.js';

/** Options of the disruption controller. */
export interface DisruptionControllerOptions {
  /** How often every budget is queued again (ms; default 30 s). */
  readonly resyncMs?: number;
  /** The client (default: over the registry's stores). */
  readonly client?: DisruptionClient;
  /** How long a DisruptionTarget condition may stay on a pod not being deleted (ms; default 2 min). */
  readonly stalePodDisruptionTimeoutMs?: number;
}

export class DisruptionController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  /** Pods (`namespace/name`) whose DisruptionTarget condition may have gone stale. */
  private readonly staleQueue: WorkQueue<string>;
  private readonly client: DisruptionClient;
  private readonly pdbs: GenericStore<PodDisruptionBudget>;
  private readonly pods: GenericStore<Pod>;
  /** Timers by queue and key, each with the time it fires (the earliest asked wins). */
  /** Pods already warned about matching several budgets (by uid). */
  private readonly warned = new Set<string>();

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: DisruptionControllerOptions = {},
  ) {
    this.pdbs = registry.of(podDisruptionBudgets);
    this.pods = registry.of(podsResource);
    this.client = opts.client ?? registryDisruptionClient(registry, logger);
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
    );
    this.staleQueue = new WorkQueue(
      (key) => key,
      (key) => this.syncStale(key),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.pdbs, signal, (ev) => this.queue.add(keyOf(ev.object)), this.logger);
    void watchLoop(this.pods, signal, (ev) => this.onPod(ev.type, ev.object), this.logger);
    resyncLoop(signal, this.opts.resyncMs ?? 30_000, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
    this.staleQueue.stop();
  }

  /** Upstream addPod/updatePod/deletePod: queue the budgets selecting the pod. */
  private onPod(type: string, pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    if (type === 'DELETED') this.warned.delete(uid);
    else {
      const wait = staleDisruptionWait(pod, Date.now(), this.staleTimeoutMs);
      if (wait !== undefined) this.later(this.staleQueue, keyOf(pod), wait);
    }
    this.client
      .listPdbs(pod.metadata.namespace ?? '')
      .then((all) => {
        const matching = all.filter((p) => selectsForEviction(p.spec?.selector, pod.metadata.labels));
        if (matching.length > 1 && type !== 'DELETED' && !this.warned.has(uid)) {
          this.warned.add(uid);
          const chosen = matching[0].metadata.name ?? '';
          this.client.record(pod, 'Pod', {
            type: 'Warning',
            reason: 'MultiplePodDisruptionBudgets',
            message: `Pod "${pod.metadata.namespace}"/"${pod.metadata.name}" matches multiple PodDisruptionBudgets.  Chose "${chosen}" arbitrarily.`,
          });
        }
        for (const pdb of matching) this.queue.add(keyOf(pdb));
      })
      .catch((err) => this.logger.debug({ pod: keyOf(pod), err: errorMessage(err) }, 'pod event not handled'));
  }

  /**
   * Queue `key` on `queue` after `afterMs` (upstream's AddAfter: the recheck of a budget, the
   * stale-condition check of a pod); one timer per key, at the earliest time asked.
   */
  private later(queue: WorkQueue<string>, key: string, afterMs: number): void {
    queue.addAfter(key, afterMs);
  }

  private async resync(): Promise<void> {
    try {
      for (const pdb of await this.client.listPdbs('')) this.queue.add(keyOf(pdb));
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'disruption controller resync failed');
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const result = await syncDisruptionBudget(this.client, key.slice(0, slash), key.slice(slash + 1));
    if (result.recheckAfterMs !== undefined) this.later(this.queue, key, result.recheckAfterMs);
  }

  private async syncStale(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const ns = key.slice(0, slash);
    const result = await syncStalePodDisruption(this.client, ns, key.slice(slash + 1), Date.now(), this.staleTimeoutMs);
    if (result.retryAfterMs !== undefined) this.later(this.staleQueue, key, result.retryAfterMs);
  }

  private get staleTimeoutMs(): number {
    return this.opts.stalePodDisruptionTimeoutMs ?? STALE_POD_DISRUPTION_TIMEOUT_MS;
  }
}
