/**
 * What the EndpointSlice controller builds from pods and Services (upstream 1.33 staging
 * k8s.io/endpointslice/utils.go: podToEndpoint, getEndpointPorts, getEndpointAddresses,
 * getAddressTypesForService; util/controller_utils.go EndpointsEqualBeyondHash). Pure functions.
 */
import { isIPv6 } from 'node:net';
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { findPort, isPodReady, shouldSetHostname } from './pod-util.js';

/** One endpoint of a slice. */
export type Endpoint = NonNullable<EndpointSlice['endpoints']>[number];
/** One port of a slice. */
export type SlicePort = NonNullable<EndpointSlice['ports']>[number];
/** A slice's address type the controller writes. */
export type AddressType = 'IPv4' | 'IPv6';

/** The Node label naming its zone. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** The pod's IPs of `addressType`, in canonical form (upstream getEndpointAddresses). */
export function endpointAddresses(pod: Pod, addressType: AddressType): string[] {
  const out: string[] = [];
  for (const { ip } of pod.status?.podIPs ?? []) {
    if (!ip) continue;
    const v6 = isIPv6(ip);
    if (v6 !== (addressType === 'IPv6')) continue;
    out.push(v6 ? new URL(`http://[${ip}]`).hostname.slice(1, -1) : ip.replace(/(^|\.)0+(\d)/g, '$1$2'));
  }
  return out;
}

/**
 * The endpoint of `pod` (on `node`, when known) for `service` (upstream podToEndpoint):
 * `serving` is the pod's readiness, `terminating` its deletion, `ready` serving and not
 * terminating (always, with publishNotReadyAddresses); nodeName, zone (the node's
 * topology.kubernetes.io/zone label), hostname (as the Endpoints controller) and a Pod targetRef.
 */
export function podToEndpoint(pod: Pod, node: Node | undefined, service: Service, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = Boolean(pod.metadata.deletionTimestamp);
  const ready = Boolean(service.spec?.publishNotReadyAddresses) || (serving && !terminating);
  const zone = node?.metadata.labels?.[ZONE_LABEL];
  return {
    addresses: endpointAddresses(pod, addressType),
    conditions: { ready, serving, terminating },
    ...(shouldSetHostname(pod, service) ? { hostname: pod.spec?.hostname ?? '' } : {}),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name ?? '',
      ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
    },
    ...(zone ? { zone } : {}),
  };
}

/**
 * The slice ports of `pod` for `service` (upstream getEndpointPorts): none for a headless
 * Service without ports; otherwise each Service port the pod resolves, named as the Service's.
 */
export function endpointPorts(service: Service, pod: Pod): SlicePort[] {
  const spec = service.spec ?? {};
  if (!spec.ports?.length && spec.clusterIP === 'None') return [];
  const out: SlicePort[] = [];
  for (const svcPort of spec.ports ?? []) {
    const port = findPort(pod, svcPort);
    if (port === undefined) continue;
    out.push({
      name: svcPort.name ?? '',
      port,
      protocol: svcPort.protocol ?? 'TCP',
      ...(svcPort.appProtocol ? { appProtocol: svcPort.appProtocol } : {}),
    });
  }
  return out;
}

/**
 * The address types of the Service's slices (upstream getAddressTypesForService): its
 * ipFamilies; without them, the family of its cluster IP, or both for a headless Service.
 */
export function addressTypesForService(service: Service): Set<AddressType> {
  const spec = service.spec ?? {};
  const out = new Set<AddressType>();
  for (const f of spec.ipFamilies ?? []) if (f === 'IPv4' || f === 'IPv6') out.add(f);
  if (out.size) return out;
  if (spec.clusterIP && spec.clusterIP !== 'None') return new Set([isIPv6(spec.clusterIP) ? 'IPv6' : 'IPv4']);
  return new Set(['IPv4', 'IPv6']);
}

/**
 * The identity of an endpoint within a slice (upstream hashEndpoint): its sorted addresses,
 * hostname and target namespace/name; conditions, node and zone may change in place.
 */
export function endpointKey(ep: Endpoint): string {
  return JSON.stringify([
    [...(ep.addresses ?? [])].sort(),
    ep.hostname ?? '',
    ep.targetRef?.namespace ?? '',
    ep.targetRef?.name ?? '',
  ]);
}

const boolChanged = (a: boolean | null | undefined, b: boolean | null | undefined) =>
  (a ?? undefined) !== (b ?? undefined);

/**
 * Whether two endpoints of the same key are equal in what the key leaves out: node, zone, the
 * three conditions and the targetRef but for its resourceVersion (upstream EndpointsEqualBeyondHash).
 */
export function endpointsEqualBeyondHash(a: Endpoint, b: Endpoint): boolean {
  if ((a.nodeName ?? undefined) !== (b.nodeName ?? undefined) || (a.zone ?? undefined) !== (b.zone ?? undefined))
    return false;
  const [ca, cb] = [a.conditions ?? {}, b.conditions ?? {}];
  if (
    boolChanged(ca.ready, cb.ready) ||
    boolChanged(ca.serving, cb.serving) ||
    boolChanged(ca.terminating, cb.terminating)
  )
    return false;
  const ref = (e: Endpoint) => {
    if (!e.targetRef) return '';
    const { resourceVersion: _rv, ...rest } = e.targetRef;
    return JSON.stringify(
      Object.entries(rest)
        .filter(([, v]) => v !== undefined && v !== '')
        .sort(),
    );
  };
  return ref(a) === ref(b);
}

/** `namespace/service` of a slice from its service-name label (upstream ServiceControllerKey). Throws without it. */
export function serviceControllerKey(slice: EndpointSlice | null | undefined): string {
  if (!slice) throw new Error('nil EndpointSlice passed to ServiceControllerKey()');
  const name = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  if (!name) throw new Error(`EndpointSlice missing ${SERVICE_NAME_LABEL} label`);
  return `${slice.metadata.namespace ?? ''}/${name}`;
}

/** The label naming a slice's Service. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
