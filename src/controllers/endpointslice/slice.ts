/**
 * An EndpointSlice's identity and metadata as the controller keeps them (upstream 1.33 staging
 * k8s.io/endpointslice/utils.go: newEndpointSlice, getEndpointSlicePrefix, ownedBy,
 * getSliceToFill, setEndpointSliceLabels, isReservedLabelKey; util NewPortMapKey). Pure functions.
 */
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { SERVICE_NAME_LABEL, type AddressType, type SlicePort } from './endpoint.js';
import { isServiceIPSet } from './pod-util.js';

/** The label naming who manages a slice, and this controller's value of it. */
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** The label marking the slices of a headless Service. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

/** The ports and address type slices are grouped by (upstream endpointMeta). */
export interface EndpointMeta {
  readonly ports: readonly SlicePort[];
  readonly addressType: AddressType;
}

const portText = (p: SlicePort) =>
  JSON.stringify([p.name ?? '', p.port ?? null, p.protocol ?? '', p.appProtocol ?? null]);

/** A key equal for the same set of ports in any order (upstream NewPortMapKey). */
export function portMapKey(ports: readonly SlicePort[] | null | undefined): string {
  return JSON.stringify((ports ?? []).map(portText).sort());
}

const isReserved = (key: string) => key === SERVICE_NAME_LABEL || key === MANAGED_BY_LABEL || key === HEADLESS_LABEL;

const sameMap = (a: Record<string, string>, b: Record<string, string>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};

/**
 * The labels a slice of `service` carries and whether they differ from the slice's (upstream
 * setEndpointSliceLabels): the Service's labels but the reserved ones, the headless label for a
 * Service without cluster IP, the service-name and managed-by labels. `changed` compares the
 * non-reserved labels only.
 */
export function sliceLabels(
  slice: EndpointSlice | undefined,
  service: Service,
): { labels: Record<string, string>; changed: boolean } {
  const own = Object.fromEntries(Object.entries(slice?.metadata.labels ?? {}).filter(([k]) => !isReserved(k)));
  const labels = Object.fromEntries(Object.entries(service.metadata.labels ?? {}).filter(([k]) => !isReserved(k)));
  const changed = !sameMap(own, labels);
  if (!isServiceIPSet(service)) labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = service.metadata.name ?? '';
  labels[MANAGED_BY_LABEL] = CONTROLLER_NAME;
  return { labels, changed };
}

/**
 * A new slice of `service` for `meta`, without endpoints: generateName `<service>-`, the
 * Service as controller owner, its labels (upstream newEndpointSlice).
 */
export function newEndpointSlice(service: Service, meta: EndpointMeta): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${service.metadata.name ?? ''}-`,
      namespace: service.metadata.namespace ?? '',
      labels: sliceLabels(undefined, service).labels,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: service.metadata.name ?? '',
          uid: service.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType: meta.addressType,
    endpoints: [],
    ports: meta.ports.map((p) => ({ ...p })),
  };
}

/** Whether the slice is owned by the Service (a v1 Service owner of its uid; upstream ownedBy). */
export function ownedBy(slice: EndpointSlice, service: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (o) => o.uid === service.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1',
  );
}

/**
 * The slice of `slices` closest to full once `numEndpoints` are added without exceeding `max`,
 * or undefined (upstream getSliceToFill).
 */
export function sliceToFill(
  slices: readonly EndpointSlice[],
  numEndpoints: number,
  max: number,
): EndpointSlice | undefined {
  let closestDiff = max;
  let closest: EndpointSlice | undefined;
  for (const slice of slices) {
    const diff = max - (numEndpoints + (slice.endpoints?.length ?? 0));
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff;
      closest = slice;
      if (closestDiff === 0) return closest;
    }
  }
  return closest;
}

/** Whether `slice` is the placeholder `placeholder` describes (upstream placeholderSliceCompare). */
export function samePlaceholder(slice: EndpointSlice, placeholder: EndpointSlice): boolean {
  return (
    slice.metadata.namespace === placeholder.metadata.namespace &&
    sameMap(slice.metadata.labels ?? {}, placeholder.metadata.labels ?? {}) &&
    slice.addressType === placeholder.addressType &&
    !slice.endpoints?.length &&
    !slice.ports?.length
  );
}
