/**
 * The autoscaler's reads and writes on this server's stores (upstream's HPA and pod listers,
 * RESTMapper plus scale client, UpdateStatus and event recorder): reads from the watch cache
 * (resourceVersion '0') except the Scale, read live (as upstream's scale client GETs it) and
 * written through the target's `scale` subresource at the resourceVersion read; the status
 * through `horizontalpodautoscalers/status`; Events with source `horizontal-pod-autoscaler`; all as the controller's service account
 * `system:serviceaccount:kube-system:horizontal-pod-autoscaler`, field manager
 * kube-controller-manager.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { events } from '../../resources/events/events.resource.js';
import { horizontalPodAutoscalers } from '../../resources/horizontalpodautoscalers/hpa.resource.js';
import { pods } from '../../resources/pods/pods.resource.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { HPA_SERVICE_ACCOUNT, type HpaClient, type ScaleView } from './types.js';

/** The controller's user (upstream's horizontal-pod-autoscaler service account credentials). */
export const HPA_CONTROLLER_USER = controllerUser(HPA_SERVICE_ACCOUNT);

const CACHED = '0';

async function cachedGet<T extends ApiObject>(store: GenericStore<T>, ns: string, name: string) {
  try {
    return await store.get(ns, name, CACHED);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

/** `get` from storage (not the watch cache), undefined for a 404. */
async function freshGet<T extends ApiObject>(store: GenericStore<T>, ns: string, name: string) {
  try {
    return await store.get(ns, name);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

const cachedList = async <T extends ApiObject>(store: GenericStore<T>, ns: string) =>
  (await store.list(ns, { predicate: buildPredicate(store.def), resourceVersion: CACHED })).items;

/** schema.ParseGroupVersion: the group of `apiVersion`; throws upstream's error. */
export function groupOfApiVersion(apiVersion: string): string {
  if (apiVersion === '' || apiVersion === '/') return '';
  const parts = apiVersion.split('/');
  if (parts.length === 1) return '';
  if (parts.length === 2) return parts[0]!;
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/**
 * The rows serving `kind` in `group` (upstream RESTMappings of the GroupKind), the preferred
 * first: those with a `scale` subresource, autoscaling/v1 Scale first.
 */
export function scaleMappings(registry: ResourceRegistry, group: string, kind: string): ResourceDefinition[] {
  const defs = registry.definitions.filter((d) => d.group === group && d.kind === kind);
  if (!defs.length) throw new Error(`no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}`);
  const rank = (d: ResourceDefinition) => {
    const sub = d.subresources.find((s) => s.name === 'scale');
    return !sub ? 2 : sub.apiVersion === 'autoscaling/v1' ? 0 : 1;
  };
  return [...defs].sort((a, b) => rank(a) - rank(b));
}

interface ScaleObject extends ApiObject {
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: unknown; targetSelector?: string };
}

/** A Scale object as the controller reads it. */
function viewOf(scale: ScaleObject, def: ResourceDefinition): ScaleView {
  const selector =
    typeof scale.status?.selector === 'string' ? scale.status.selector : (scale.status?.targetSelector ?? '');
  return {
    replicas: scale.spec?.replicas ?? 0,
    statusReplicas: scale.status?.replicas ?? 0,
    selector,
    resource: def.group ? `${def.plural}.${def.group}` : def.plural,
    resourceVersion: scale.metadata.resourceVersion ?? undefined,
  };
}

/** An HpaClient over `registry`. */
export function registryHpaClient(registry: ResourceRegistry, logger: Logger): HpaClient {
  const write = { user: HPA_CONTROLLER_USER, fieldManager: CONTROLLER_FIELD_MANAGER };
  const hpas = registry.of(horizontalPodAutoscalers);
  const status = hpas.def.subresources.find((s) => s.name === 'status');
  const podStore = registry.of(pods);
  const storeOf = (resource: string): { store: GenericStore; def: ResourceDefinition } | undefined => {
    const dot = resource.indexOf('.');
    const [plural, group] = dot < 0 ? [resource, ''] : [resource.slice(0, dot), resource.slice(dot + 1)];
    const def = registry.definitions.find(
      (d) => d.group === group && d.plural === plural && d.subresources.some((s) => s.name === 'scale'),
    );
    const store = def && registry.lookup(def.group, def.version, def.plural);
    return def && store ? { store, def } : undefined;
  };
  return {
    getHpa: (ns, name) => cachedGet(hpas, ns, name),
    listHpas: (ns) => cachedList(hpas, ns),
    listPods: (ns) => cachedList(podStore, ns),
    async getScale(apiVersion, kind, ns, name) {
      const mappings = scaleMappings(registry, groupOfApiVersion(apiVersion), kind);
      let first: Error | undefined;
      for (const def of mappings) {
        const store = registry.lookup(def.group, def.version, def.plural);
        const sub = def.subresources.find((s) => s.name === 'scale');
        if (!store || !sub?.present) {
          first ??= new Error('the server could not find the requested resource');
          continue;
        }
        // A live read, as upstream's scale client GETs the subresource (no lister behind it).
        const obj = await freshGet(store, ns, name);
        if (obj) return viewOf(sub.present(obj) as ScaleObject, def);
        const resource = def.group ? `${def.plural}.${def.group}` : def.plural;
        first ??= new Error(`${resource} ${JSON.stringify(name)} not found`);
      }
      throw first ?? new Error('unrecognized resource');
    },
    async updateScale(ns, name, scale, replicas) {
      const found = storeOf(scale.resource);
      if (!found) throw new Error('the server could not find the requested resource');
      const sub = found.def.subresources.find((s) => s.name === 'scale');
      const rv = scale.resourceVersion;
      await found.store.update(
        ns,
        name,
        (view) => ({
          ...view,
          metadata: { ...view.metadata, ...(rv ? { resourceVersion: rv } : {}) },
          spec: { ...(view.spec as object), replicas },
        }),
        sub,
        write,
      );
    },
    async writeStatus(hpa) {
      await hpas.update(hpa.metadata.namespace ?? '', hpa.metadata.name ?? '', () => hpa, status, write);
    },
    record(hpa, event) {
      const ref = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' };
      const ev = legacyEvent(hpa, ref, 'horizontal-pod-autoscaler', event);
      void recordLegacyEvent(registry.of(events) as GenericStore, ev, write.user, logger);
    },
  };
}
