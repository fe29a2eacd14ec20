/**
 * The disruption controller's reads and writes on this server's stores (upstream's listers,
 * REST mapper, scale client and PolicyV1 UpdateStatus): reads from the watch cache
 * (resourceVersion '0'); the status written through `poddisruptionbudgets/status` at the
 * resourceVersion read (a 409 when an eviction changed the budget since), a stale
 * DisruptionTarget condition through `pods/status` likewise, and Events, as the
 * controller's service account `system:serviceaccount:kube-system:disruption-controller` with
 * field manager kube-controller-manager. Events' source is `controllermanager`, as upstream's.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { deployments } from '../../resources/deployments/deployments.resource.js';
import { events } from '../../resources/events/events.resource.js';
import { podDisruptionBudgets } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.resource.js';
import { pods } from '../../resources/pods/pods.resource.js';
import { replicaSets } from '../../resources/replicasets/replicasets.resource.js';
import { replicationControllers } from '../../resources/replicationcontrollers/replicationcontrollers.resource.js';
import { statefulSets } from '../../resources/statefulsets/statefulsets.resource.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { groupOf } from './expected-pods.js';
import { DISRUPTION_SERVICE_ACCOUNT, type DisruptionClient, type ScaleAnswer } from './types.js';

/** The controller's user (upstream's disruption-controller service account credentials). */
export const DISRUPTION_CONTROLLER_USER = controllerUser(DISRUPTION_SERVICE_ACCOUNT);

/** The Scale versions upstream's scale client converts (scale.NewScaleConverter().ScaleVersions()). */
const SCALE_VERSIONS = ['autoscaling/v1', 'extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'];

const CACHED = '0';

/** `get` from the watch cache, undefined for a 404. */
async function cachedGet<T extends ApiObject>(store: GenericStore<T>, ns: string, name: string) {
  try {
    return await store.get(ns, name, CACHED);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

/** Every object of `store` in `ns`, from the watch cache. */
async function cachedList<T extends ApiObject>(store: GenericStore<T>, ns: string): Promise<T[]> {
  return (await store.list(ns, { predicate: buildPredicate(store.def), resourceVersion: CACHED })).items;
}

/**
 * Upstream getScaleController's RESTMapping plus scale-client GET over `registry` (see
 * DisruptionClient.getScale).
 */
export async function scaleOf(
  registry: ResourceRegistry,
  apiVersion: string,
  kind: string,
  ns: string,
  name: string,
): Promise<ScaleAnswer | undefined> {
  const group = groupOf(apiVersion);
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const def = registry.definitions.find((d) => d.group === group && d.version === version && d.kind === kind);
  const store = def && registry.lookup(group, version, def.plural);
  if (!def || !store)
    throw new Error(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
  const sub = def.subresources.find((s) => s.name === 'scale');
  const implementsScale = sub?.present && sub.kind === 'Scale' && SCALE_VERSIONS.includes(sub.apiVersion ?? '');
  if (!sub?.present || !implementsScale)
    throw new Error(`${group ? `${def.plural}.${group}` : def.plural} does not implement the scale subresource`);
  const obj = await cachedGet(store, ns, name);
  if (!obj) return undefined;
  const scale = sub.present(obj) as ApiObject & { spec?: { replicas?: number } };
  return { uid: scale.metadata.uid ?? '', scale: scale.spec?.replicas ?? 0 };
}

/** A DisruptionClient over `registry`; Events that cannot be written are logged at debug level. */
export function registryDisruptionClient(registry: ResourceRegistry, logger: Logger): DisruptionClient {
  const write = { user: DISRUPTION_CONTROLLER_USER, fieldManager: CONTROLLER_FIELD_MANAGER };
  const pdbs = registry.of(podDisruptionBudgets);
  const status = pdbs.def.subresources.find((s) => s.name === 'status');
  const podStore = registry.of(pods);
  const podStatus = podStore.def.subresources.find((s) => s.name === 'status');
  return {
    getPdb: (ns, name) => cachedGet(pdbs, ns, name),
    listPdbs: (ns) => cachedList(pdbs, ns),
    listPods: (ns) => cachedList(podStore, ns),
    getPod: (ns, name) => cachedGet(podStore, ns, name),
    getReplicaSet: (ns, name) => cachedGet(registry.of(replicaSets), ns, name),
    getDeployment: (ns, name) => cachedGet(registry.of(deployments), ns, name),
    getStatefulSet: (ns, name) => cachedGet(registry.of(statefulSets), ns, name),
    getReplicationController: (ns, name) => cachedGet(registry.of(replicationControllers), ns, name),
    getScale: (apiVersion, kind, ns, name) => scaleOf(registry, apiVersion, kind, ns, name),
    async writeStatus(pdb) {
      await pdbs.update(pdb.metadata.namespace ?? '', pdb.metadata.name ?? '', () => pdb, status, write);
    },
    async writePodStatus(pod) {
      await podStore.update(pod.metadata.namespace ?? '', pod.metadata.name ?? '', () => pod, podStatus, write);
    },
    record(obj, kind, event) {
      const ref = { apiVersion: kind === 'Pod' ? 'v1' : 'policy/v1', kind };
      const ev = legacyEvent(obj, ref, 'controllermanager', event);
      void recordLegacyEvent(registry.of(events) as GenericStore, ev, write.user, logger);
    },
  };
}
