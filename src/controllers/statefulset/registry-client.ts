/**
 * The StatefulSet controller's {@link StatefulSetClient} over this server's stores (upstream's
 * listers and clientset calls): reads from the watch cache (resourceVersion '0') except the
 * fresh reads; writes through the stores, so admission runs, as the controller's service
 * account `system:serviceaccount:kube-system:statefulset-controller` with field manager
 * `kube-controller-manager`; Events as core/v1 Events from `statefulset-controller`.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { ApiError, conflict } from '../../errors/api-error.js';
import { controllerRevisions } from '../../resources/controllerrevisions/controllerrevisions.resource.js';
import { events } from '../../resources/events/events.resource.js';
import { persistentVolumeClaims } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import { statefulSets } from '../../resources/statefulsets/statefulsets.resource.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { controllerOf } from '../replicaset/workload.js';
import type { StatefulSetClient } from './client.js';
import { STATEFUL_SET_CONTROLLER, STATEFUL_SET_KIND } from './kind.js';

/** The controller's user (kube-controller-manager's per-controller service account credentials). */
export const STATEFUL_SET_CONTROLLER_USER = controllerUser(STATEFUL_SET_CONTROLLER);

const WRITE = { user: STATEFUL_SET_CONTROLLER_USER, fieldManager: CONTROLLER_FIELD_MANAGER } as const;
const ns = (o: ApiObject) => o.metadata.namespace ?? '';
const nm = (o: ApiObject) => o.metadata.name ?? '';

/** A 409 for an object replaced (another uid) or changed under the write. */
function changed(resource: string, obj: ApiObject, why: string): ApiError {
  return conflict(resource, nm(obj), why);
}

/** The object from the watch cache, undefined when absent. */
async function cached<T extends ApiObject>(store: GenericStore<T>, namespace: string, name: string) {
  try {
    return await store.get(namespace, name, '0');
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

/** Every object of a namespace ('' for all) from the watch cache. */
async function listAll<T extends ApiObject>(store: GenericStore<T>, namespace: string): Promise<T[]> {
  return (await store.list(namespace, { predicate: buildPredicate(store.def), resourceVersion: '0' })).items;
}

/** Update `obj` in `store` through `fn` on the stored object, which must still have `obj`'s uid. */
function updateSame<T extends ApiObject>(store: GenericStore<T>, obj: ApiObject, fn: (cur: T) => T, sub?: string) {
  const subresource = sub ? store.def.subresources.find((s) => s.name === sub) : undefined;
  return store.update(
    ns(obj),
    nm(obj),
    (cur) => {
      if (cur.metadata.uid !== obj.metadata.uid) throw changed(store.def.plural, obj, 'the object has been replaced');
      return fn(cur);
    },
    subresource,
    WRITE,
  );
}

/** A StatefulSetClient over `registry`; Events that cannot be written are logged at debug level. */
export function registryStatefulSetClient(registry: ResourceRegistry, logger: Logger): StatefulSetClient {
  const sets = registry.of(statefulSets);
  const pods = registry.of(podsResource);
  const claims = registry.of(persistentVolumeClaims);
  const revisions = registry.of(controllerRevisions);
  const eventStore = registry.of(events) as GenericStore;
  return {
    getSet: (namespace, name) => cached(sets, namespace, name),
    getSetFresh: (namespace, name) => sets.get(namespace, name),
    listSets: (namespace) => listAll(sets, namespace),
    listPods: (namespace) => listAll(pods, namespace),
    getPod: (namespace, name) => cached(pods, namespace, name),
    createPod: (pod) => pods.create(ns(pod), pod, WRITE),
    updatePod: (pod) => pods.update(ns(pod), nm(pod), () => pod, undefined, WRITE),
    async deletePod(namespace, name) {
      await deleteObject(pods, namespace, name, { user: WRITE.user });
    },
    adoptPod: async (pod, ref) => {
      await updateSame(pods, pod, (cur) => {
        const other = controllerOf(cur);
        if (other && other.uid !== ref.uid)
          throw changed('pods', pod, `it is already controlled by ${other.kind} ${other.name}`);
        if (other) return cur;
        const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
        return { ...cur, metadata: { ...cur.metadata, ownerReferences: [...refs, ref] } };
      });
    },
    releasePod: async (pod, ownerUid) => {
      await updateSame(pods, pod, (cur) => {
        const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
        const { ownerReferences: _dropped, ...rest } = cur.metadata;
        return { ...cur, metadata: refs.length ? { ...rest, ownerReferences: refs } : rest };
      });
    },
    getClaim: (namespace, name) => cached(claims, namespace, name),
    createClaim: (claim) => claims.create(ns(claim), claim, WRITE),
    async setClaimOwners(claim, refs) {
      await updateSame(claims, claim, (cur) => {
        const { ownerReferences: _old, ...rest } = cur.metadata;
        return { ...cur, metadata: refs.length ? { ...rest, ownerReferences: refs } : rest };
      });
    },
    listRevisions: (namespace) => listAll(revisions, namespace),
    getRevision: (namespace, name) => revisions.get(namespace, name),
    createRevision: (rev) => revisions.create(ns(rev), rev, WRITE),
    setRevisionNumber: (rev, revision) => updateSame(revisions, rev, (cur) => ({ ...cur, revision })),
    adoptRevision: (rev, ref) =>
      updateSame(revisions, rev, (cur) => {
        if (controllerOf(cur)) throw changed('controllerrevisions', rev, 'it already has a controller');
        return {
          ...cur,
          metadata: { ...cur.metadata, ownerReferences: [...(cur.metadata.ownerReferences ?? []), ref] },
        };
      }),
    async deleteRevision(namespace, name) {
      await deleteObject(revisions, namespace, name, { user: WRITE.user });
    },
    writeStatus: (set, status) => updateSame(sets, set, (cur) => ({ ...cur, status }), 'status'),
    event(set, event) {
      const obj = legacyEvent(set, STATEFUL_SET_KIND, STATEFUL_SET_CONTROLLER, event);
      void recordLegacyEvent(eventStore, obj, STATEFUL_SET_CONTROLLER_USER, logger);
    },
  };
}
