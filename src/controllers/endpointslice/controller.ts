/**
 * The EndpointSlice controller (upstream 1.33 pkg/controller/endpointslice NewController and
 * syncService): watches of Services, pods and EndpointSlices feed a de-duplicating queue of
 * Service keys; a sync reconciles the slices of a Service with a selector (not ExternalName)
 * with the pods it selects (reconciler.ts). A pod change queues the Services selecting it
 * before and after; a change of a slice this controller manages that it did not write itself
 * (upstream's EndpointSliceTracker) queues its Service after a second, so a slice edited or
 * deleted by hand is set right. A deleted Service's slices go with it by garbage collection
 * (they are owned by it). Started by the leader; `stop()` ends the watches and the queue.
 *
 * Name in `--controllers`: `endpointslice` (on by default upstream).
 */
import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { endpointSlices as slicesResource } from '../../resources/endpointslices/endpointslices.resource.js';
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import { nodes as nodesResource } from '../../resources/nodes/nodes.resource.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { services as servicesResource } from '../../resources/services/services.resource.js';
import type { Service } from '../../resources/services/services.schema.js';
import { events as eventsResource } from '../../resources/events/events.resource.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { ServiceIndex } from './service-index.js';
import { serviceControllerKey } from './endpoint.js';
import { keyOf, selects } from './pod-util.js';
import { DEFAULT_MAX_ENDPOINTS_PER_SLICE, reconcileSlices } from './reconciler.js';
import { ENDPOINTSLICE_CONTROLLER_USER, registrySliceClient, type EndpointSliceClient } from './registry-client.js';
import { CONTROLLER_NAME, MANAGED_BY_LABEL } from './slice.js';
import { TriggerTimeTracker } from './trigger-time.js';

/** The controller's name in `--controllers`. */
export const ENDPOINTSLICE_CONTROLLER = 'endpointslice';
/** Upstream endpointSliceChangeMinSyncDelay. */
const SLICE_CHANGE_DELAY_MS = 1000;

/** Options of the EndpointSlice controller. */
export interface EndpointSliceControllerOptions {
  /** Most endpoints per slice (upstream --max-endpoints-per-slice, default 100). */
  readonly maxEndpointsPerSlice?: number;
  /** Delay before syncing after a pod change (ms; upstream --endpointslice-updates-batch-period, default 0). */
  readonly batchPeriodMs?: number;
}

/** The EndpointSlice controller; see the file comment. `new EndpointSliceController(registry, logger)`, then `start()`/`stop()`. */
export class EndpointSliceController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly tracker = new TriggerTimeTracker();
  private readonly index = new ServiceIndex();
  /** What this controller wrote last per slice (`ns/name` -> resourceVersion; '' = deleted). */
  private readonly written = new Map<string, string>();
  private readonly serviceStore: GenericStore<Service>;
  private readonly podStore: GenericStore<Pod>;
  private readonly sliceStore: GenericStore<EndpointSlice>;
  private readonly client: EndpointSliceClient;
  private readonly eventStore: GenericStore;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: EndpointSliceControllerOptions = {},
  ) {
    this.serviceStore = registry.of(servicesResource);
    this.podStore = registry.of(podsResource);
    this.sliceStore = registry.of(slicesResource);
    this.client = registrySliceClient(
      { services: this.serviceStore, pods: this.podStore, nodes: registry.of(nodesResource), slices: this.sliceStore },
      (ns, name, rv) => this.written.set(`${ns}/${name}`, rv ?? ''),
    );
    this.eventStore = registry.of(eventsResource) as GenericStore;
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
    void watchLoop(this.sliceStore, signal, (ev) => this.onSlice(ev.type, ev.object), this.logger);
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

  /** Upstream onEndpointSliceAdd/Update/Delete, with "did I write this" in place of its tracker. */
  private onSlice(type: string, slice: EndpointSlice): void {
    if (slice.metadata.labels?.[MANAGED_BY_LABEL] !== CONTROLLER_NAME) return;
    const key = keyOf(slice);
    const mine = this.written.get(key);
    if (type === 'DELETED' ? mine === '' : mine === slice.metadata.resourceVersion) {
      if (type === 'DELETED') this.written.delete(key);
      return;
    }
    try {
      this.enqueue(serviceControllerKey(slice), SLICE_CHANGE_DELAY_MS);
    } catch {
      // a managed slice without the service-name label has no Service to queue
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const [ns, name] = [key.slice(0, slash), key.slice(slash + 1)];
    const service = await this.client.getService(ns, name);
    if (!service) return this.tracker.deleteService(ns, name);
    const spec = service.spec ?? {};
    if (spec.type === 'ExternalName' || !spec.selector) return;
    const pods = (await this.client.listPods(ns)).filter((p) => selects(spec.selector, p.metadata.labels));
    const slices = await this.client.listSlices(ns, name);
    const triggerTime = this.tracker.compute(ns, service, pods);
    try {
      await reconcileSlices(
        service,
        pods,
        slices,
        triggerTime,
        this.client,
        this.opts.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE,
      );
    } catch (err) {
      const message = `Error updating Endpoint Slices for Service ${ns}/${name}: ${err instanceof Error ? err.message : String(err)}`;
      const event = { type: 'Warning' as const, reason: 'FailedToUpdateEndpointSlices', message };
      const ref = { apiVersion: 'v1', kind: 'Service' };
      void recordLegacyEvent(
        this.eventStore,
        legacyEvent(service, ref, 'endpoint-slice-controller', event),
        ENDPOINTSLICE_CONTROLLER_USER,
        this.logger,
      );
      throw err;
    }
  }
}
