/**
 * EndpointSlice strategy (upstream pkg/registry/discovery/endpointslice/strategy.go, 1.33):
 * generation 1 on create and +1 on an update that changes anything but metadata, or the
 * labels; v1 writes drop deprecatedTopology (dropTopologyOnV1: on update only when endpoints
 * change, keeping the node name a previous `kubernetes.io/hostname` topology label carried);
 * hints.forNodes is dropped while PreferSameTrafficDistribution is off (1.33) unless the
 * stored object uses it.
 */
import { isDeepStrictEqual } from 'node:util';
import { validateDns1123Subdomain } from '../../api/names.js';
import type { Strategy } from '../../registry/types.js';
import { defaultEndpointSlice, type EndpointSlice } from './endpointslices.schema.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './endpointslices.validation.js';

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** Whether some endpoint of `s` has forNodes hints. */
const usesForNodes = (s?: EndpointSlice) =>
  (s?.endpoints ?? []).some((e) => e.hints?.forNodes !== undefined && e.hints?.forNodes !== null);

/** dropDisabledFields: forNodes hints, unless the old slice uses them. */
function dropForNodes(obj: EndpointSlice, old?: EndpointSlice): void {
  if (usesForNodes(old)) return;
  for (const e of obj.endpoints ?? []) if (e.hints) delete e.hints.forNodes;
}

/** dropTopologyOnV1. */
function dropTopology(obj: EndpointSlice, old?: EndpointSlice): void {
  if (old && isDeepStrictEqual(old.endpoints ?? [], obj.endpoints ?? [])) return;
  const previous = new Set(
    (old?.endpoints ?? []).map((e) => e.deprecatedTopology?.[HOSTNAME_LABEL]).filter((n): n is string => !!n),
  );
  for (const e of obj.endpoints ?? []) {
    const node = e.deprecatedTopology?.[HOSTNAME_LABEL];
    if (
      (e.nodeName === undefined || e.nodeName === null) &&
      node !== undefined &&
      previous.has(node) &&
      !validateDns1123Subdomain(node).length
    )
      e.nodeName = node;
    delete e.deprecatedTopology;
  }
}

/** Everything but metadata. */
function body(s: EndpointSlice): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = s;
  return rest;
}

export const endpointSliceStrategy: Strategy<EndpointSlice> = {
  defaults: defaultEndpointSlice,
  prepareForCreate(obj) {
    obj.metadata.generation = 1;
    dropForNodes(obj);
    dropTopology(obj);
  },
  prepareForUpdate(obj, old) {
    const generation = old.metadata.generation ?? 0;
    const changed =
      !isDeepStrictEqual(body(obj), body(old)) ||
      !isDeepStrictEqual(obj.metadata.labels ?? {}, old.metadata.labels ?? {});
    obj.metadata.generation = changed ? generation + 1 : generation;
    dropForNodes(obj, old);
    dropTopology(obj, old);
  },
  validate: validateEndpointSlice,
  validateUpdate: validateEndpointSliceUpdate,
};
