/**
 * Which pods make endpoints and for which Services, shared by the Endpoints and EndpointSlice
 * controllers (upstream 1.33 staging k8s.io/endpointslice/util/controller_utils.go:
 * ShouldPodBeInEndpoints, ShouldSetHostname, GetPodServiceMemberships, podEndpointsChanged,
 * GetServicesToUpdateOnPodChange, determineNeededServiceUpdates; k8s.io/endpointslice/utils.go
 * findPort, isServiceIPSet). Pure functions.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';

/** A Service's port as its spec carries it. */
export type ServicePort = NonNullable<NonNullable<Service['spec']>['ports']>[number];

/** `namespace/name` of an object. */
export const keyOf = (obj: { metadata: { namespace?: string | null; name?: string | null } }): string =>
  `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

/** True when the pod's `Ready` condition is `True` (upstream IsPodReady). */
export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
}

/**
 * Whether the pod belongs in an Endpoints or EndpointSlice: not terminal (Succeeded, Failed),
 * with an IP, and not terminating unless `includeTerminating` (upstream ShouldPodBeInEndpoints).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/**
 * Whether an endpoint of `pod` for `svc` carries the pod's hostname: the pod sets a hostname and
 * its subdomain is the Service's name, in the same namespace (upstream ShouldSetHostname).
 */
export function shouldSetHostname(pod: Pod, svc: Service): boolean {
  return (
    Boolean(pod.spec?.hostname) &&
    pod.spec?.subdomain === svc.metadata.name &&
    svc.metadata.namespace === pod.metadata.namespace
  );
}

/** Whether the Service has a cluster IP (neither "" nor "None"; upstream IsServiceIPSet). */
export function isServiceIPSet(svc: Service): boolean {
  const ip = svc.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

/**
 * The pod's port for a Service port (upstream findPort): a number target is used as it is (an
 * unset target is the Service port, as the API defaults it); a name is looked up among the
 * containers' ports of the Service port's protocol, then the restartable init containers'
 * (sidecars). Undefined when the pod has no such named port.
 */
export function findPort(pod: Pod, svcPort: ServicePort): number | undefined {
  const target = svcPort.targetPort ?? svcPort.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = svcPort.protocol ?? 'TCP';
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...(pod.spec?.containers ?? []), ...sidecars]) {
    const hit = (c.ports ?? []).find((p) => p.name === target && (p.protocol ?? 'TCP') === protocol);
    if (hit) return hit.containerPort;
  }
  return undefined;
}

/**
 * Whether `selector` (a Service's map selector) selects `labels`. An absent selector selects
 * nothing; an empty one selects everything (upstream labels.ValidatedSetSelector).
 */
export function selects(
  selector: Readonly<Record<string, string>> | null | undefined,
  labels: Readonly<Record<string, string>> | null | undefined,
): boolean {
  if (!selector) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** The keys of the Services of `services` whose selector selects the pod (upstream GetPodServiceMemberships). */
export function podServiceMemberships(services: readonly Service[], pod: Pod): Set<string> {
  const out = new Set<string>();
  for (const svc of services) {
    if (svc.metadata.namespace !== pod.metadata.namespace) continue;
    if (selects(svc.spec?.selector, pod.metadata.labels)) out.add(keyOf(svc));
  }
  return out;
}

const sameLabels = (a: Pod, b: Pod): boolean => {
  const x = a.metadata.labels ?? {};
  const y = b.metadata.labels ?? {};
  const kx = Object.keys(x);
  return kx.length === Object.keys(y).length && kx.every((k) => Object.hasOwn(y, k) && x[k] === y[k]);
};

/**
 * How a pod update matters (upstream podEndpointsChanged): `podChanged` when its deletion
 * timestamp, readiness or IPs changed; `labelsChanged` when its labels, hostname or subdomain did.
 */
export function podEndpointsChanged(oldPod: Pod, newPod: Pod): { podChanged: boolean; labelsChanged: boolean } {
  const labelsChanged =
    !sameLabels(oldPod, newPod) ||
    oldPod.spec?.hostname !== newPod.spec?.hostname ||
    oldPod.spec?.subdomain !== newPod.spec?.subdomain;
  const ips = (p: Pod) => (p.status?.podIPs ?? []).map((i) => i.ip).join(',');
  const podChanged =
    (oldPod.metadata.deletionTimestamp ?? '') !== (newPod.metadata.deletionTimestamp ?? '') ||
    isPodReady(oldPod) !== isPodReady(newPod) ||
    ips(oldPod) !== ips(newPod);
  return { podChanged, labelsChanged };
}

/**
 * The Services to sync after a pod update (upstream GetServicesToUpdateOnPodChange): none when
 * the resourceVersion is the same or nothing relevant changed; the new memberships; with a label
 * change, also the old ones (all of both when the pod also changed, else the symmetric difference).
 */
export function servicesToUpdateOnPodChange(services: readonly Service[], oldPod: Pod, newPod: Pod): Set<string> {
  if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return new Set();
  const { podChanged, labelsChanged } = podEndpointsChanged(oldPod, newPod);
  if (!podChanged && !labelsChanged) return new Set();
  const current = podServiceMemberships(services, newPod);
  if (!labelsChanged) return current;
  return determineNeededServiceUpdates(podServiceMemberships(services, oldPod), current, podChanged);
}

/** Upstream determineNeededServiceUpdates: the union when the pod changed, else the symmetric difference. */
export function determineNeededServiceUpdates(
  oldServices: ReadonlySet<string>,
  services: ReadonlySet<string>,
  podChanged: boolean,
): Set<string> {
  if (podChanged) return new Set([...services, ...oldServices]);
  return new Set([
    ...[...services].filter((s) => !oldServices.has(s)),
    ...[...oldServices].filter((s) => !services.has(s)),
  ]);
}
