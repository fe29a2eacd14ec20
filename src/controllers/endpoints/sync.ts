/**
 * One sync of the Endpoints controller (upstream 1.33 pkg/controller/endpoint/
 * endpoints_controller.go syncService): the Endpoints named after a Service hold, for a Service
 * with a selector (not ExternalName), the addresses of the pods it selects in its namespace that
 * belong in endpoints (endpointslice/pod-util.ts shouldPodBeInEndpoints; terminating pods only
 * with publishNotReadyAddresses), per Service port resolved on each pod (a pod without a named
 * port is left out of that port), ready pods in `addresses` and others in `notReadyAddresses`
 * (all in `addresses` with publishNotReadyAddresses), repacked (repack.ts); labels are the
 * Service's plus `service.kubernetes.io/headless` for a headless Service; the annotations carry
 * the last change trigger time and, past 1000 addresses, `endpoints.kubernetes.io/over-capacity:
 * truncated`. Nothing is written when subsets, labels and the capacity annotation are already
 * right. A gone Service's Endpoints are deleted.
 */
import type { Endpoints } from '../../resources/endpoints/endpoints.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import {
  findPort,
  isServiceIPSet,
  selects,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from '../endpointslice/pod-util.js';
import { TriggerTimeTracker, withTriggerTime } from '../endpointslice/trigger-time.js';
import {
  capacityAnnotationSetCorrectly,
  endpointPortFromServicePort,
  endpointSubset,
  OVER_CAPACITY,
  podToEndpointAddressForService,
  subsetsEqualIgnoringResourceVersion,
  TRUNCATED,
  truncateSubsets,
} from './addresses.js';
import { repackSubsets, type EndpointSubset } from './repack.js';

/** The label marking the Endpoints (and slices) of a headless Service. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

/** The reads and writes of a sync (the server's stores, or a fake in tests). */
export interface EndpointsClient {
  /** The Service, undefined when it does not exist. */
  getService(namespace: string, name: string): Promise<Service | undefined>;
  /** Every pod of the namespace. */
  listPods(namespace: string): Promise<Pod[]>;
  /** The Endpoints, undefined when it does not exist. */
  getEndpoints(namespace: string, name: string): Promise<Endpoints | undefined>;
  createEndpoints(namespace: string, endpoints: Endpoints): Promise<void>;
  /** Write `endpoints` over the stored one of its resourceVersion (409 when it changed). */
  updateEndpoints(namespace: string, endpoints: Endpoints): Promise<void>;
  /** Delete the Endpoints; one already gone is not an error. */
  deleteEndpoints(namespace: string, name: string): Promise<void>;
}

/** Reports a failed write as upstream's Warning Events on the Endpoints (FailedToCreateEndpoint, FailedToUpdateEndpoint). */
export type EndpointsEventRecorder = (endpoints: Endpoints, reason: string, message: string) => void;

/** The subsets of `service` over `pods` before truncation (the loop of upstream syncService). */
export function desiredSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const spec = service.spec ?? {};
  const tolerate = Boolean(spec.publishNotReadyAddresses);
  const subsets: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerate)) continue;
    const address = podToEndpointAddressForService(service, pod);
    if (!address) continue;
    if (shouldSetHostname(pod, service)) address.hostname = pod.spec?.hostname ?? '';
    if (!spec.ports?.length) {
      if (spec.clusterIP === 'None') subsets.push(endpointSubset(pod, address, undefined, tolerate));
      continue;
    }
    for (const svcPort of spec.ports) {
      const port = findPort(pod, svcPort);
      if (port === undefined) continue;
      subsets.push(endpointSubset(pod, address, endpointPortFromServicePort(svcPort, port), tolerate));
    }
  }
  return repackSubsets(subsets);
}

const withoutHeadless = (labels: Readonly<Record<string, string>> | null | undefined) => {
  const { [HEADLESS_LABEL]: _dropped, ...rest } = labels ?? {};
  return rest;
};

const sameMap = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};

/**
 * Sync the Endpoints of Service `namespace/name`. `tracker` keeps the trigger times across
 * syncs; `record` hears of failed writes. Throws the client's errors (the caller retries),
 * except a create refused because the namespace is terminating.
 */
export async function syncEndpoints(
  namespace: string,
  name: string,
  client: EndpointsClient,
  tracker: TriggerTimeTracker,
  record: EndpointsEventRecorder = () => {},
): Promise<void> {
  const service = await client.getService(namespace, name);
  if (!service) {
    await client.deleteEndpoints(namespace, name);
    tracker.deleteService(namespace, name);
    return;
  }
  const spec = service.spec ?? {};
  if (spec.type === 'ExternalName' || !spec.selector) return;
  const pods = (await client.listPods(namespace)).filter((p) => selects(spec.selector, p.metadata.labels));
  const triggerTime = tracker.compute(namespace, service, pods);
  const subsets = desiredSubsets(service, pods);
  const current = await client.getEndpoints(namespace, name);
  const serviceLabels = service.metadata.labels ?? {};
  if (
    current &&
    subsetsEqualIgnoringResourceVersion(current.subsets, subsets) &&
    sameMap(withoutHeadless(current.metadata.labels), serviceLabels) &&
    capacityAnnotationSetCorrectly(current.metadata.annotations, current.subsets ?? [])
  )
    return;
  const annotations = withTriggerTime(current?.metadata.annotations, triggerTime);
  if (truncateSubsets(subsets)) annotations[OVER_CAPACITY] = TRUNCATED;
  else delete annotations[OVER_CAPACITY];
  const labels = isServiceIPSet(service) ? withoutHeadless(serviceLabels) : { ...serviceLabels, [HEADLESS_LABEL]: '' };
  const metadata = current
    ? { ...current.metadata, labels, annotations }
    : { name, namespace, labels, ...(Object.keys(annotations).length ? { annotations } : {}) };
  const next: Endpoints = {
    ...(current ?? { apiVersion: 'v1', kind: 'Endpoints' }),
    metadata,
    subsets,
  };
  try {
    if (current) await client.updateEndpoints(namespace, next);
    else await client.createEndpoints(namespace, next);
  } catch (err) {
    if (!current && namespaceTerminating(err)) return;
    const why = err instanceof Error ? err.message : String(err);
    if (current) record(next, 'FailedToUpdateEndpoint', `Failed to update endpoint ${namespace}/${name}: ${why}`);
    else record(next, 'FailedToCreateEndpoint', `Failed to create endpoint for service ${namespace}/${name}: ${why}`);
    throw err;
  }
}
