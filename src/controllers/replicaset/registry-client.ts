/**
 * The replica controller's reads and writes on this server's stores (upstream's listers and
 * clientset calls of pkg/controller/replicaset and RealPodControl): reads from the watch cache
 * (resourceVersion '0') except the fresh read before adopting; writes through the stores, so
 * admission runs, as the controller's service account `system:serviceaccount:kube-system:
 * <name>-controller` (kube-controller-manager's --use-service-account-credentials).
 */
import type { OwnerReference } from '../../api/object.js';
import type { WriterInfo } from '../../registry/access.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import { ApiError, conflict } from '../../errors/api-error.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { errorMessage } from '../../api/error-message.js';
import { CONTROLLER_FIELD_MANAGER } from '../controller-user.js';
import type { ReplicaEventReason } from './events.js';
import { namespaceTerminating, type ReplicaClient } from './sync.js';
import { controllerOf, type Workload, type WorkloadStatus } from './workload.js';

/** A 409 for a pod that changed under a claim (upstream's uid precondition in the patch). */
function changed(pod: Pod, why: string): ApiError {
  return conflict('pods', pod.metadata.name ?? '', why);
}

/**
 * A ReplicaClient over `controllers` (ReplicaSets or ReplicationControllers) and `pods`, writing
 * as `user` with field manager `kube-controller-manager`; pod creations and deletions are
 * reported to `record` (upstream RealPodControl's events; not for a create refused because the
 * namespace is terminating, nor a delete of a pod already gone).
 */
export function registryReplicaClient(
  controllers: GenericStore<Workload>,
  pods: GenericStore<Pod>,
  user: WriterInfo,
  record: (owner: Workload, reason: ReplicaEventReason, message: string) => void = () => {},
): ReplicaClient {
  const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
  const status = controllers.def.subresources.find((s) => s.name === 'status');
  const cached = { resourceVersion: '0' };
  const sameUid = (cur: Pod, pod: Pod) => {
    if (cur.metadata.uid !== pod.metadata.uid) throw changed(pod, 'the object has been replaced');
  };
  return {
    async getController(namespace, name) {
      try {
        return await controllers.get(namespace, name, '0');
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
    getControllerFresh: (namespace, name) => controllers.get(namespace, name),
    listControllers: async (namespace) =>
      (await controllers.list(namespace, { predicate: buildPredicate(controllers.def), ...cached })).items,
    listPods: async (namespace) =>
      (await pods.list(namespace, { predicate: buildPredicate(pods.def), ...cached })).items,
    async createPod(namespace, pod, owner) {
      try {
        const created = await pods.create(namespace, pod, write);
        record(owner, 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
      } catch (err) {
        if (!namespaceTerminating(err)) record(owner, 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        throw err;
      }
    },
    async deletePod(namespace, name, owner) {
      try {
        await deleteObject(pods, namespace, name, { user });
        record(owner, 'SuccessfulDelete', `Deleted pod: ${name}`);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404))
          record(owner, 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
        throw err;
      }
    },
    async adoptPod(pod: Pod, ref: OwnerReference) {
      await pods.update(
        pod.metadata.namespace ?? '',
        pod.metadata.name ?? '',
        (cur) => {
          sameUid(cur, pod);
          const other = controllerOf(cur);
          if (other && other.uid !== ref.uid)
            throw changed(pod, `it is already controlled by ${other.kind} ${other.name}`);
          if (other) return cur;
          const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
          return { ...cur, metadata: { ...cur.metadata, ownerReferences: [...refs, ref] } };
        },
        undefined,
        write,
      );
    },
    async releasePod(pod: Pod, ownerUid: string) {
      await pods.update(
        pod.metadata.namespace ?? '',
        pod.metadata.name ?? '',
        (cur) => {
          sameUid(cur, pod);
          const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
          const { ownerReferences: _dropped, ...rest } = cur.metadata;
          return { ...cur, metadata: refs.length ? { ...rest, ownerReferences: refs } : rest };
        },
        undefined,
        write,
      );
    },
    writeStatus: (obj: Workload, next: WorkloadStatus) =>
      controllers.update(
        obj.metadata.namespace ?? '',
        obj.metadata.name ?? '',
        (cur) => {
          if (cur.metadata.uid !== obj.metadata.uid) throw new Error('the controller was replaced');
          return { ...cur, status: next };
        },
        status,
        write,
      ),
  };
}
