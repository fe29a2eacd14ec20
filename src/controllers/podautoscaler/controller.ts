/**
 * The horizontal pod autoscaler controller (upstream 1.33 pkg/controller/podautoscaler
 * NewHorizontalController, Run, processNextWorkItem, reconcileKey): every HPA is synced by
 * reconcileAutoscaler (reconcile.ts) once per sync period; a new or changed HPA is queued for
 * the next period, as upstream's fixed-interval rate limiter does, and a failed sync is logged
 * and waits for the next period too (upstream does not retry sooner). A deleted HPA's
 * recommendations and scale events are forgotten. Metrics come from `opts.metrics` (default:
 * the metrics server registered as the APIService `v1beta1.metrics.k8s.io`). Started by the
 * leader; `stop()` ends the watch and the queue.
 *
 * Name in `--controllers`: `horizontal-pod-autoscaling` (on by default upstream).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { errorMessage } from '../../api/error-message.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { horizontalPodAutoscalers } from '../../resources/horizontalpodautoscalers/hpa.resource.js';
import { keyOf } from '../replicaset/workload.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { apiServiceMetricsClient } from './metrics/api-client.js';
import type { ResourceMetricsClient } from './metrics/types.js';
import { createHpaMonitor } from './monitor.js';
import { reconcileAutoscaler, type ReconcileContext } from './reconcile.js';
import { registryHpaClient } from './registry-client.js';
import { ReplicaCalculator, type PodSelector } from './replica-calculator.js';
import { ScalingHistory } from './scaling-history.js';
import { DEFAULT_HPA_SETTINGS, type HpaClient, type HpaSettings } from './types.js';

/** Options: upstream's flags (HpaSettings, defaults theirs), and the clients for tests. */
export interface HorizontalControllerOptions extends Partial<HpaSettings> {
  readonly client?: HpaClient;
  readonly metrics?: ResourceMetricsClient;
  /** The registry upstream's `horizontal_pod_autoscaler_controller_*` metrics go to (none: not recorded). */
  readonly metricsRegistry?: Registry;
}

/** The controller: `start()` watches the HPAs and syncs each once per period; `stop()` ends it. */
export class HorizontalController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly client: HpaClient;
  private readonly settings: HpaSettings;
  private readonly context: ReconcileContext;
  private readonly history = new ScalingHistory();
  private readonly selectors = new Map<string, PodSelector>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    opts: HorizontalControllerOptions = {},
  ) {
    const { client, metrics, metricsRegistry, ...settings } = opts;
    this.settings = { ...DEFAULT_HPA_SETTINGS, ...settings };
    this.client = client ?? registryHpaClient(registry, logger);
    const calc = new ReplicaCalculator({
      metrics: metrics ?? apiServiceMetricsClient(registry),
      listPods: (ns) => this.client.listPods(ns),
      tolerance: this.settings.tolerance,
      cpuInitializationPeriodMs: this.settings.cpuInitializationPeriodMs,
      delayOfInitialReadinessStatusMs: this.settings.initialReadinessDelayMs,
    });
    this.context = {
      client: this.client,
      calc,
      history: this.history,
      downscaleStabilizationMs: this.settings.downscaleStabilizationMs,
      selectors: this.selectors,
      monitor: metricsRegistry ? createHpaMonitor(metricsRegistry) : undefined,
    };
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
    );
  }

  /** Watch the HPAs (each queued for the next period when added or changed, at once when deleted). */
  start(): void {
    const store = this.registry.of(horizontalPodAutoscalers);
    void watchLoop(
      store,
      this.abort.signal,
      (ev) => {
        const key = keyOf(ev.object);
        if (ev.type === 'DELETED') this.queue.add(key);
        else this.queue.addAfter(key, this.settings.syncPeriodMs);
      },
      this.logger,
    );
  }

  /** End the watch and drop the queue (nothing is synced afterwards). */
  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  /** reconcileKey, then the key again after the sync period while the HPA exists. */
  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const hpa = await this.client.getHpa(key.slice(0, slash), key.slice(slash + 1));
    if (!hpa) {
      this.history.forget(key);
      this.selectors.delete(key);
      return;
    }
    try {
      await reconcileAutoscaler(this.context, hpa, key);
    } catch (err) {
      this.logger.info({ hpa: key, err: errorMessage(err) }, 'horizontal pod autoscaler sync failed');
    }
    this.queue.addAfter(key, this.settings.syncPeriodMs);
  }
}
