/**
 * The Endpoints controller (upstream 1.33 pkg/controller/endpoint NewEndpointController):
 * watches of Services, pods and Endpoints feed a de-duplicating queue of Service keys
 * (`namespace/name`); each key is synced by syncEndpoints (sync.ts). A Service change queues
 * it; a pod change queues the Services selecting the pod before and after
 * (endpointslice/pod-util.ts); a deleted Endpoints queues its Service, so one removed by hand
 * comes back. At start every existing Endpoints is queued once (upstream
 * checkLeftoverEndpoints), so the Endpoints of a Service deleted while no leader ran go too;
 * Endpoints carrying the leader-election annotation are skipped. Started by the leader;
 * `stop()` ends the watches and the queue.
 *
 * Name in `--controllers`: `endpoint` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { endpoints as endpointsResource } from '../../resources/endpoints/endpoints.resource.js';
import type { Endpoints } from '../../resources/endpoints/endpoints.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { services as servicesResource } from '../../resources/services/services.resource.js';
import type { Service } from '../../resources/services/services.schema.js';
import { keyOf } from '../endpointslice/pod-util.js';
import { TriggerTimeTracker } from '../endpointslice/trigger-time.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { events as eventsResource } from '../../resources/events/events.resource.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { ServiceIndex } from '../endpointslice/service-index.js';
import { ENDPOINT_CONTROLLER_USER, registryEndpointsClient } from './registry-client.js';
import { syncEndpoints, type EndpointsClient, type EndpointsEventRecorder } from './sync.js';

/** The controller's name in `--controllers`. */
export const ENDPOINT_CONTROLLER = 'endpoint';
/** Endpoints holding a leader-election record (never deleted as leftovers). */
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/** Options of the Endpoints controller. */
export interface EndpointsControllerOptions {
  /** Delay before syncing after a pod change, to batch changes (ms; upstream --endpoint-updates-batch-period, default 0). */
  readonly batchPeriodMs?: number;
}

/** The Endpoints controller; see the file comment. `new EndpointsController(registry, logger)`, then `start()`/`stop()`. */
export class EndpointsController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly tracker = new TriggerTimeTracker();
  /** The Services seen by the watch, by key (upstream's service lister). */
  private readonly index = new ServiceIndex();
  /** The last seen version of each pod, for update events' old object. */
  private readonly serviceStore: GenericStore<Service>;
  private readonly podStore: GenericStore<Pod>;
  private readonly endpointsStore: GenericStore<Endpoints>;
  private readonly client: EndpointsClient;
  private readonly record: EndpointsEventRecorder;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: EndpointsControllerOptions = {},
  ) {
    this.serviceStore = registry.of(servicesResource);
    this.podStore = registry.of(podsResource);
    this.endpointsStore = registry.of(endpointsResource);
    this.client = registryEndpointsClient(this.serviceStore, this.podStore, this.endpointsStore);
    const eventStore = registry.of(eventsResource) as GenericStore;
    this.record = (ep, reason, message) =>
      void recordLegacyEvent(
        eventStore,
        legacyEvent(ep, { apiVersion: 'v1', kind: 'Endpoints' }, 'endpoint-controller', {
          type: 'Warning',
          reason,
          message,
        }),
        ENDPOINT_CONTROLLER_USER,
        logger,
      );
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.serviceStore, signal, (ev) => this.onService(ev.type, ev.object), this.logger);
    void watchLoop(this.podStore, signal, (ev) => this.onPod(ev.type, ev.object), this.logger);
    void watchLoop(
      this.endpointsStore,
      signal,
      (ev) => {
        if (ev.type === 'DELETED') this.enqueue(keyOf(ev.object));
      },
      this.logger,
    );
    void this.checkLeftoverEndpoints();
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private enqueue(key: string, afterMs = 0): void {
    this.queue.addAfter(key, afterMs);
  }

  private onService(type: string, svc: Service): void {
    this.enqueue(this.index.onService(type, svc));
  }

  /** Upstream addPod / updatePod / deletePod. */
  private onPod(type: string, pod: Pod): void {
    for (const k of this.index.onPod(type, pod)) this.enqueue(k, this.opts.batchPeriodMs);
  }

  private async checkLeftoverEndpoints(): Promise<void> {
    try {
      const all = await this.endpointsStore.list('', { predicate: buildPredicate(this.endpointsStore.def) });
      for (const ep of all.items) if (!ep.metadata.annotations?.[LEADER_ANNOTATION]) this.enqueue(keyOf(ep));
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'listing Endpoints failed; leftover Endpoints are not cleaned up');
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    await syncEndpoints(key.slice(0, slash), key.slice(slash + 1), this.client, this.tracker, this.record);
  }
}
