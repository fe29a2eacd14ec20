/**
 * Hints from a Service's `trafficDistribution` (upstream 1.33 staging
 * k8s.io/endpointslice/trafficdist/trafficdist.go ReconcileHints, with the reconciler's
 * validTrafficDistribution and hintsEnabled; ServiceTrafficDistribution is on in 1.33,
 * PreferSameTrafficDistribution off): with `PreferClose` (and no topology-mode annotation),
 * every ready endpoint with a zone is hinted for its zone; otherwise slices written carry no
 * hints. The topology-aware-hints annotation's own algorithm (upstream's TopologyCache, which
 * weighs zones by node CPU) is not implemented: such Services get no hints.
 */
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import type { Endpoint } from './endpoint.js';

const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';

/** Whether the topology annotations ask for hints (`Auto`/`auto`; the deprecated one wins; upstream hintsEnabled). */
export function hintsEnabled(annotations: Readonly<Record<string, string>> | null | undefined): boolean {
  const value = annotations?.[TOPOLOGY_AWARE_HINTS] ?? annotations?.[TOPOLOGY_MODE];
  return value === 'Auto' || value === 'auto';
}

/** Whether the Service's trafficDistribution decides the hints (PreferClose without the topology annotation). */
export function usesTrafficDistribution(service: Service): boolean {
  return service.spec?.trafficDistribution === 'PreferClose' && !hintsEnabled(service.metadata.annotations);
}

/** The hints `ep` should carry under PreferClose: its zone when it is ready and has one. */
function closeHints(ep: Endpoint): Endpoint['hints'] | undefined {
  return ep.conditions?.ready && ep.zone ? { forZones: [{ name: ep.zone }] } : undefined;
}

const sameHints = (a: Endpoint['hints'] | null | undefined, b: Endpoint['hints'] | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Set (PreferClose) or clear every endpoint's hints in place; not-ready endpoints keep theirs under PreferClose, as upstream. */
export function applyHints(slice: EndpointSlice, preferClose: boolean): void {
  for (const ep of slice.endpoints ?? []) {
    if (preferClose && !ep.conditions?.ready) continue;
    const hints = preferClose ? closeHints(ep) : undefined;
    if (hints) ep.hints = hints;
    else delete ep.hints;
  }
}

/** Whether an unchanged slice's hints differ from what PreferClose wants (upstream preferCloseHeuristic.needsUpdate). */
export function needsHintUpdate(slice: EndpointSlice): boolean {
  return (slice.endpoints ?? []).some((ep) => ep.conditions?.ready && !sameHints(ep.hints, closeHints(ep)));
}
