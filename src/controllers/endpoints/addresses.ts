/**
 * The addresses and ports the Endpoints controller derives from pods (upstream 1.33
 * pkg/controller/endpoint/endpoints_controller.go: podToEndpointAddressForService,
 * addEndpointSubset, endpointPortFromServicePort, truncateEndpoints,
 * capacityAnnotationSetCorrectly, endpointSubsetsEqualIgnoreResourceVersion). Pure functions.
 */
import { isIPv6 } from 'node:net';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { isPodReady, type ServicePort } from '../endpointslice/pod-util.js';
import type { EndpointAddress, EndpointPort, EndpointSubset } from './repack.js';

/** Most addresses an Endpoints holds (upstream maxCapacity). */
export const MAX_CAPACITY = 1000;
/** The annotation saying the addresses were cut to {@link MAX_CAPACITY}, and its value. */
export const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
export const TRUNCATED = 'truncated';

/**
 * The address of `pod` for `svc`: the pod IP of the Service's first IP family (without
 * ipFamilies: the family of its cluster IP, or of the pod's IP for a headless Service), with
 * the pod's node and a `Pod` targetRef (namespace, name, uid; no resourceVersion, as 1.33).
 * Undefined when the pod has no IP of that family. A pod without a node (an IP written through
 * pods/status on an unbound pod) gets no nodeName, where upstream writes "" and the Endpoints'
 * validation then refuses every write for the Service.
 */
export function podToEndpointAddressForService(svc: Service, pod: Pod): EndpointAddress | undefined {
  const spec = svc.spec ?? {};
  let v6: boolean;
  if (spec.ipFamilies?.length) v6 = spec.ipFamilies[0] === 'IPv6';
  else if (spec.clusterIP && spec.clusterIP !== 'None') v6 = isIPv6(spec.clusterIP);
  else v6 = isIPv6(pod.status?.podIP ?? '');
  const ip = (pod.status?.podIPs ?? []).map((p) => p.ip).find((a) => isIPv6(a ?? '') === v6);
  if (!ip) return undefined;
  return {
    ip,
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name ?? '',
      ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
    },
  };
}

/** The Endpoints port of a Service port resolved to `port` (upstream endpointPortFromServicePort). */
export function endpointPortFromServicePort(svcPort: ServicePort, port: number): EndpointPort {
  return {
    ...(svcPort.name ? { name: svcPort.name } : {}),
    port,
    ...(svcPort.protocol ? { protocol: svcPort.protocol } : {}),
    ...(svcPort.appProtocol ? { appProtocol: svcPort.appProtocol } : {}),
  };
}

/**
 * One subset holding `address` as ready (the pod is ready, or `tolerateUnready`) or not ready,
 * with `port` when given (upstream addEndpointSubset).
 */
export function endpointSubset(
  pod: Pod,
  address: EndpointAddress,
  port: EndpointPort | undefined,
  tolerateUnready: boolean,
): EndpointSubset {
  const ports = port ? { ports: [port] } : {};
  return tolerateUnready || isPodReady(pod)
    ? { addresses: [address], ...ports }
    : { notReadyAddresses: [address], ...ports };
}

const countAddresses = (subsets: readonly EndpointSubset[]) =>
  subsets.reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);

/**
 * Whether the over-capacity annotation is as it should be: absent and the addresses within
 * {@link MAX_CAPACITY} (upstream capacityAnnotationSetCorrectly).
 */
export function capacityAnnotationSetCorrectly(
  annotations: Readonly<Record<string, string>> | null | undefined,
  subsets: readonly EndpointSubset[],
): boolean {
  if (countAddresses(subsets) > MAX_CAPACITY) return false;
  return !Object.hasOwn(annotations ?? {}, OVER_CAPACITY);
}

/**
 * Cut `subsets` (in place) to {@link MAX_CAPACITY} addresses, ready ones first, each subset
 * keeping its proportion rounded up (upstream truncateEndpoints). Returns whether it cut.
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  const totalReady = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
  const totalNotReady = subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0);
  if (totalReady + totalNotReady <= MAX_CAPACITY) return false;
  const truncateReady = totalReady > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const subset of subsets) {
    const inSubset = (truncateReady ? subset.addresses : subset.notReadyAddresses)?.length ?? 0;
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      subset.addresses = (subset.addresses ?? []).slice(0, toBeAdded);
      subset.notReadyAddresses = [];
      canBeAdded -= subset.addresses.length;
    } else {
      subset.notReadyAddresses = (subset.notReadyAddresses ?? []).slice(0, toBeAdded);
      canBeAdded -= subset.notReadyAddresses.length;
    }
  }
  return true;
}

/**
 * A comparable form of subsets: empty lists and unset fields dropped (Go's semantic equality
 * takes nil and empty alike) and target resourceVersions ignored.
 */
function comparable(subsets: readonly EndpointSubset[] | null | undefined): string {
  return JSON.stringify(subsets ?? [], (key, value: unknown) => {
    if (key === 'resourceVersion' || value === null) return undefined;
    if (Array.isArray(value)) return value.length ? value : undefined;
    if (typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, obj[k]]),
    );
  });
}

/** Whether two subset lists are equal but for their targets' resourceVersion (upstream endpointSubsetsEqualIgnoreResourceVersion). */
export function subsetsEqualIgnoringResourceVersion(
  a: readonly EndpointSubset[] | null | undefined,
  b: readonly EndpointSubset[] | null | undefined,
): boolean {
  return comparable(a) === comparable(b);
}
