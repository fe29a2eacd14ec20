/**
 * The DaemonSet controller's reads and writes on this server's stores (upstream 1.33
 * DaemonSetsController's listers, kubeClient, RealPodControl and RealControllerRevisionControl):
 * reads from the watch cache (resourceVersion '0') except the fresh reads upstream makes with
 * its client; writes through the stores (admission runs) as `system:serviceaccount:kube-system:
 * daemon-set-controller` with field manager kube-controller-manager. Pod creations and
 * deletions record upstream RealPodControl's Events, and the controller's own Events are
 * core/v1 Events from `daemonset-controller`.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { ApiObject, OwnerReference } from '../../api/object.js';
import { ApiError, conflict } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { controllerRevisions } from '../../resources/controllerrevisions/controllerrevisions.resource.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import { daemonSets } from '../../resources/daemonsets/daemonsets.resource.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import { events } from '../../resources/events/events.resource.js';
import { nodes } from '../../resources/nodes/nodes.resource.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import type { DaemonSetClient } from './types.js';

/** Upstream's service account of the controller (kube-controller-manager's `daemon-set-controller`). */
export const DAEMON_SET_CONTROLLER_USER = controllerUser('daemon-set-controller');
/** The Events' source component (upstream's recorder). */
export const DAEMON_SET_EVENT_SOURCE = 'daemonset-controller';

const WRITE = { user: DAEMON_SET_CONTROLLER_USER, fieldManager: CONTROLLER_FIELD_MANAGER } as const;
const CACHED = { resourceVersion: '0' } as const;
const nsOf = (o: ApiObject) => o.metadata.namespace ?? '';
const nameOf = (o: ApiObject) => o.metadata.name ?? '';

/** A 409 for an object that changed under a claim (upstream's uid precondition). */
const replaced = (resource: string, o: ApiObject) => conflict(resource, nameOf(o), 'the object has been replaced');

/** Add `ref` to an object's owners unless another controller owns it (upstream's adopt patch). */
function adopt<T extends ApiObject>(resource: string, obj: T, ref: OwnerReference) {
  return (cur: T): T => {
    if (cur.metadata.uid !== obj.metadata.uid) throw replaced(resource, obj);
    const other = cur.metadata.ownerReferences?.find((r) => r.controller === true);
    if (other && other.uid !== ref.uid)
      throw conflict(resource, nameOf(obj), `it is already controlled by ${other.kind} ${other.name}`);
    if (other) return cur;
    const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
    return { ...cur, metadata: { ...cur.metadata, ownerReferences: [...refs, ref] } };
  };
}

/** Drop the owner `uid` from an object (upstream's release patch). */
function release<T extends ApiObject>(resource: string, obj: T, uid: string) {
  return (cur: T): T => {
    if (cur.metadata.uid !== obj.metadata.uid) throw replaced(resource, obj);
    const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    const { ownerReferences: _dropped, ...rest } = cur.metadata;
    return { ...cur, metadata: refs.length ? { ...rest, ownerReferences: refs } : rest };
  };
}

/** A DaemonSetClient over `registry`. */
export function registryDaemonSetClient(registry: ResourceRegistry, logger: Logger): DaemonSetClient {
  const dsStore = registry.of(daemonSets);
  const podStore = registry.of(podsResource);
  const revStore = registry.of(controllerRevisions);
  const nodeStore = registry.of(nodes);
  const eventStore = registry.of(events) as GenericStore;
  const status = dsStore.def.subresources.find((s) => s.name === 'status');
  const event: DaemonSetClient['event'] = (ds, type, reason, message) => {
    const obj = legacyEvent(ds, { apiVersion: 'apps/v1', kind: 'DaemonSet' }, DAEMON_SET_EVENT_SOURCE, {
      type,
      reason,
      message,
    });
    void recordLegacyEvent(eventStore, obj, WRITE.user, logger);
  };
  const writeDsStatus = (ds: DaemonSet, patch: NonNullable<DaemonSet['status']>) =>
    dsStore.update(
      nsOf(ds),
      nameOf(ds),
      (cur) => {
        if (cur.metadata.uid !== ds.metadata.uid) throw replaced('daemonsets', ds);
        return { ...cur, status: { ...(cur.status ?? {}), ...patch } };
      },
      status,
      WRITE,
    );
  return {
    async getDaemonSet(namespace, name) {
      try {
        return await dsStore.get(namespace, name, '0');
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
    getDaemonSetFresh: (namespace, name) => dsStore.get(namespace, name),
    listNodes: async () => (await nodeStore.list('', { predicate: buildPredicate(nodeStore.def), ...CACHED })).items,
    listPods: async (ns) => (await podStore.list(ns, { predicate: buildPredicate(podStore.def), ...CACHED })).items,
    listRevisions: async (ns) =>
      (await revStore.list(ns, { predicate: buildPredicate(revStore.def), ...CACHED })).items,
    async createPod(ns, pod, ds) {
      try {
        const created = await podStore.create(ns, pod, WRITE);
        event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${nameOf(created)}`);
      } catch (err) {
        if (!namespaceTerminating(err)) event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        throw err;
      }
    },
    async deletePod(ns, name, ds) {
      try {
        await deleteObject(podStore, ns, name, { user: WRITE.user });
        event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404))
          event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
        throw err;
      }
    },
    async labelPod(ns, name, labels) {
      await podStore.update(
        ns,
        name,
        (cur: Pod) => ({ ...cur, metadata: { ...cur.metadata, labels: { ...cur.metadata.labels, ...labels } } }),
        undefined,
        WRITE,
      );
    },
    async adoptPod(pod, ref) {
      await podStore.update(nsOf(pod), nameOf(pod), adopt('pods', pod, ref), undefined, WRITE);
    },
    async releasePod(pod, uid) {
      await podStore.update(nsOf(pod), nameOf(pod), release('pods', pod, uid), undefined, WRITE);
    },
    createRevision: (rev) => revStore.create(nsOf(rev), rev, WRITE),
    getRevisionFresh: (ns, name) => revStore.get(ns, name),
    updateRevision: (rev) =>
      revStore.update(
        nsOf(rev),
        nameOf(rev),
        (cur: ControllerRevision) => ({
          ...cur,
          metadata: { ...cur.metadata, labels: rev.metadata.labels },
          revision: rev.revision,
        }),
        undefined,
        WRITE,
      ),
    async deleteRevision(ns, name) {
      await deleteObject(revStore, ns, name, { user: WRITE.user });
    },
    async adoptRevision(rev, ref) {
      await revStore.update(nsOf(rev), nameOf(rev), adopt('controllerrevisions', rev, ref), undefined, WRITE);
    },
    async releaseRevision(rev, uid) {
      await revStore.update(nsOf(rev), nameOf(rev), release('controllerrevisions', rev, uid), undefined, WRITE);
    },
    async writeStatus(ds, counts) {
      await writeDsStatus(ds, counts);
    },
    async setCollisionCount(ds, count) {
      await writeDsStatus(ds, { collisionCount: count });
    },
    event,
  };
}
