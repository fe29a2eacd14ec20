/**
 * The EndpointSlice reconciler (upstream 1.33 staging k8s.io/endpointslice/reconciler.go
 * Reconcile, reconcileByAddressType, reconcileByPortMapping, finalize): turns the pods a
 * Service selects into its slices, per address type and per set of ports. Existing slices keep
 * the endpoints still wanted (updated in place when their conditions, node or zone change);
 * slices left empty are deleted; remaining endpoints first fill the slices already being
 * updated (fullest first), then one unchanged slice that fits them, then new slices of at most
 * `maxEndpointsPerSlice`. A Service with no endpoints keeps one empty placeholder slice. Creates
 * become updates of slices that would be deleted; nothing is created for a Service being
 * deleted. Slices of another owner or an address type the Service lost are deleted. Nothing is
 * written when nothing changed. Hints follow `trafficDistribution: PreferClose`
 * (traffic-distribution.ts); the topology-mode annotation's hints are not implemented.
 */
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import {
  addressTypesForService,
  endpointKey,
  endpointPorts,
  endpointsEqualBeyondHash,
  podToEndpoint,
  type AddressType,
  type Endpoint,
} from './endpoint.js';
import { shouldPodBeInEndpoints } from './pod-util.js';
import {
  newEndpointSlice,
  ownedBy,
  portMapKey,
  samePlaceholder,
  sliceLabels,
  sliceToFill,
  type EndpointMeta,
} from './slice.js';
import { applyHints, needsHintUpdate, usesTrafficDistribution } from './traffic-distribution.js';
import { withTriggerTime } from './trigger-time.js';

/** The reads and writes of the reconciler (the server's stores, or a fake in tests). */
export interface SliceClient {
  /** The Node, undefined when it does not exist. */
  getNode(name: string): Promise<Node | undefined>;
  /** Create a slice (it has a generateName). */
  createSlice(namespace: string, slice: EndpointSlice): Promise<void>;
  /** Write `slice` over the stored one of its resourceVersion (409 when it changed). */
  updateSlice(namespace: string, slice: EndpointSlice): Promise<void>;
  /** Delete a slice; one already gone is not an error. */
  deleteSlice(namespace: string, name: string): Promise<void>;
}

/** Upstream's default --max-endpoints-per-slice. */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;

interface Changes {
  create: EndpointSlice[];
  update: EndpointSlice[];
  remove: EndpointSlice[];
}

/**
 * Upstream's hint step of reconcileByAddressType: under PreferClose, unchanged slices whose
 * hints are off are updated too, and every slice written is hinted; otherwise the slices
 * written lose their hints.
 */
function withHints(service: Service, existing: readonly EndpointSlice[], changes: Changes): Changes {
  const preferClose = usesTrafficDistribution(service);
  const touched = new Set([...changes.update, ...changes.remove].map((s) => s.metadata.name));
  const update = [...changes.update];
  if (preferClose)
    for (const slice of existing)
      if (!touched.has(slice.metadata.name) && needsHintUpdate(slice)) update.push(structuredClone(slice));
  for (const slice of [...changes.create, ...update]) applyHints(slice, preferClose);
  return { ...changes, update };
}

/**
 * Reconcile the slices of `service` with `pods` (the pods its selector selects) and the
 * slices it has (`existing`: managed by this controller, labelled with its name, not being
 * deleted). Throws an Error listing what failed (the caller retries), after doing the rest.
 */
export async function reconcileSlices(
  service: Service,
  pods: readonly Pod[],
  existing: readonly EndpointSlice[],
  triggerTime: number,
  client: SliceClient,
  maxEndpointsPerSlice = DEFAULT_MAX_ENDPOINTS_PER_SLICE,
): Promise<void> {
  const errors: string[] = [];
  const types = addressTypesForService(service);
  const stale = existing.filter((s) => !types.has(s.addressType as AddressType));
  for (const addressType of types) {
    const mine = existing.filter((s) => s.addressType === addressType);
    try {
      const changes = await changesFor(service, pods, mine, addressType, client, maxEndpointsPerSlice, errors);
      await finalize(service, withHints(service, mine, changes), triggerTime, client);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  for (const slice of stale) {
    try {
      await client.deleteSlice(service.metadata.namespace ?? '', slice.metadata.name ?? '');
    } catch (err) {
      errors.push(
        `error deleting ${slice.metadata.name} EndpointSlice: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (errors.length) throw new Error(errors.join('; '));
}

/** Upstream reconcileByAddressType up to finalize: the creates, updates and deletes wanted. */
async function changesFor(
  service: Service,
  pods: readonly Pod[],
  existing: readonly EndpointSlice[],
  addressType: AddressType,
  client: SliceClient,
  max: number,
  errors: string[],
): Promise<Changes> {
  const out: Changes = { create: [], update: [], remove: [] };
  const existingByPorts = new Map<string, EndpointSlice[]>();
  for (const slice of existing) {
    if (!ownedBy(slice, service)) {
      out.remove.push(slice);
      continue;
    }
    const key = portMapKey(slice.ports);
    existingByPorts.set(key, [...(existingByPorts.get(key) ?? []), slice]);
  }
  const desiredMeta = new Map<string, EndpointMeta>();
  const desired = new Map<string, Map<string, Endpoint>>();
  const nodes = new Map<string, Node | undefined>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(service, pod);
    const key = portMapKey(ports);
    if (!desired.has(key)) desired.set(key, new Map());
    if (!desiredMeta.has(key)) desiredMeta.set(key, { ports, addressType });
    const nodeName = pod.spec?.nodeName ?? '';
    if (!nodes.has(nodeName)) nodes.set(nodeName, nodeName ? await client.getNode(nodeName) : undefined);
    const node = nodes.get(nodeName);
    if (!node && !service.spec?.publishNotReadyAddresses) {
      errors.push(
        `skipping Pod ${pod.metadata.name} for Service ${service.metadata.namespace}/${service.metadata.name}: Node ${nodeName} Not Found`,
      );
      continue;
    }
    const endpoint = podToEndpoint(pod, node, service, addressType);
    if (endpoint.addresses?.length) desired.get(key)!.set(endpointKey(endpoint), endpoint);
  }
  for (const [key, endpoints] of desired) {
    const changes = byPortMapping(service, existingByPorts.get(key) ?? [], endpoints, desiredMeta.get(key)!, max);
    out.create.push(...changes.create);
    out.update.push(...changes.update);
    out.remove.push(...changes.remove);
  }
  for (const [key, slices] of existingByPorts) if (!desired.has(key)) out.remove.push(...slices);
  if (existing.length === out.remove.length && out.create.length < 1) {
    const placeholder = newEndpointSlice(service, { ports: [], addressType });
    if (out.remove.length === 1 && samePlaceholder(out.remove[0], placeholder)) out.remove = [];
    else out.create.push(placeholder);
  }
  return out;
}

const withEndpoints = (slice: EndpointSlice, endpoints: Endpoint[]): EndpointSlice => ({
  ...structuredClone(slice),
  endpoints,
});

/** Upstream reconcileByPortMapping: the slices of one set of ports. */
function byPortMapping(
  service: Service,
  existing: readonly EndpointSlice[],
  desired: Map<string, Endpoint>,
  meta: EndpointMeta,
  max: number,
): Changes {
  const byName = new Map<string, EndpointSlice>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();
  for (const slice of existing) {
    const name = slice.metadata.name ?? '';
    byName.set(name, slice);
    const kept: Endpoint[] = [];
    let endpointUpdated = false;
    for (const ep of slice.endpoints ?? []) {
      const key = endpointKey(ep);
      const got = desired.get(key);
      if (!got) continue;
      kept.push(got);
      if (!endpointsEqualBeyondHash(got, ep)) endpointUpdated = true;
      desired.delete(key);
    }
    const { labels, changed } = sliceLabels(slice, service);
    if (endpointUpdated || (slice.endpoints?.length ?? 0) !== kept.length) {
      if (!kept.length) toDelete.add(name);
      else {
        const next = withEndpoints(slice, kept);
        next.metadata.labels = labels;
        byName.set(name, next);
        toUpdate.add(name);
      }
    } else if (changed) {
      const next = structuredClone(slice);
      next.metadata.labels = labels;
      byName.set(name, next);
      toUpdate.add(name);
    } else unchanged.add(name);
  }
  const popInto = (slice: EndpointSlice) => {
    const eps = (slice.endpoints ??= []);
    for (const [key, ep] of desired) {
      if (eps.length >= max) break;
      eps.push(ep);
      desired.delete(key);
    }
  };
  if (desired.size && toUpdate.size) {
    const slices = [...toUpdate].map((n) => byName.get(n)!);
    slices.sort((a, b) => (b.endpoints?.length ?? 0) - (a.endpoints?.length ?? 0));
    for (const slice of slices) popInto(slice);
  }
  const create: EndpointSlice[] = [];
  while (desired.size) {
    let fill: EndpointSlice | undefined;
    if (desired.size < max && unchanged.size)
      fill = sliceToFill(
        [...unchanged].map((n) => byName.get(n)!),
        desired.size,
        max,
      );
    if (fill) {
      fill = structuredClone(fill);
      byName.set(fill.metadata.name ?? '', fill);
    } else fill = newEndpointSlice(service, meta);
    popInto(fill);
    if (fill.metadata.name) {
      toUpdate.add(fill.metadata.name);
      unchanged.delete(fill.metadata.name);
    } else create.push(fill);
  }
  return {
    create,
    update: [...toUpdate].map((n) => byName.get(n)!),
    remove: [...toDelete].map((n) => byName.get(n)!),
  };
}

/** Upstream finalize: recycle slices to delete as updates, then create, update and delete. */
async function finalize(service: Service, changes: Changes, triggerTime: number, client: SliceClient): Promise<void> {
  const ns = service.metadata.namespace ?? '';
  const { create, update } = changes;
  const remove = [...changes.remove];
  for (let i = 0; i < remove.length && create.length;) {
    const old = remove[i];
    const slice = create[create.length - 1];
    if (old.addressType === slice.addressType && ownedBy(old, service)) {
      create.pop();
      const { generateName: _g, ...metadata } = slice.metadata;
      update.push({
        ...slice,
        metadata: { ...old.metadata, ...metadata, name: old.metadata.name, labels: slice.metadata.labels },
      });
      remove.splice(i, 1);
    } else i++;
  }
  const stamped = (s: EndpointSlice): EndpointSlice => ({
    ...s,
    metadata: { ...s.metadata, annotations: withTriggerTime(s.metadata.annotations, triggerTime) },
  });
  if (!service.metadata.deletionTimestamp) {
    for (const slice of create) {
      try {
        await client.createSlice(ns, stamped(slice));
      } catch (err) {
        if (namespaceTerminating(err)) return;
        const why = err instanceof Error ? err.message : String(err);
        throw new Error(`failed to create EndpointSlice for Service ${ns}/${service.metadata.name}: ${why}`, {
          cause: err,
        });
      }
    }
  }
  for (const slice of update) await client.updateSlice(ns, stamped(slice));
  for (const slice of remove) await client.deleteSlice(ns, slice.metadata.name ?? '');
}
