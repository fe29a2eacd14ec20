/**
 * The Job controller's reads and writes on this server's stores (upstream 1.33
 * pkg/controller/job: the job and pod listers, BatchV1().Jobs().Get / UpdateStatus,
 * RealPodControl with the `job-controller` recorder): reads from the watch cache
 * (resourceVersion '0') except the fresh read before adopting; writes through the stores, so
 * admission runs, as `system:serviceaccount:kube-system:job-controller` with field manager
 * `kube-controller-manager`. Events are core/v1 Events from `job-controller`.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { OwnerReference } from '../../api/object.js';
import { ApiError, conflict } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { CONTROLLER_FIELD_MANAGER } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import { controllerOf } from '../replicaset/workload.js';
import type { JobClient } from './client.js';
import { JOB_TRACKING_FINALIZER } from './job-util.js';

/** The Events' source component and the controller's service account. */
export const JOB_CONTROLLER = 'job-controller';

const MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';
const changed = (pod: Pod, why: string) => conflict('pods', pod.metadata.name ?? '', why);
const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

/** A JobClient over the `jobs`, `pods` and `events` stores, writing as `user`. */
export function registryJobClient(
  jobs: GenericStore<Job>,
  pods: GenericStore<Pod>,
  events: GenericStore,
  user: WriterInfo,
  logger: Logger,
): JobClient {
  const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
  const statusSub = jobs.def.subresources.find((s) => s.name === 'status');
  const record: JobClient['recordEvent'] = (job, type, reason, message) =>
    void recordLegacyEvent(
      events,
      legacyEvent(job, { apiVersion: 'batch/v1', kind: 'Job' }, JOB_CONTROLLER, { type, reason, message }),
      user,
      logger,
    );
  const patchPod = (pod: Pod, fn: (cur: Pod) => Pod) =>
    pods.update(
      pod.metadata.namespace ?? '',
      pod.metadata.name ?? '',
      (cur) => {
        if (cur.metadata.uid !== pod.metadata.uid) throw changed(pod, 'the object has been replaced');
        return fn(cur);
      },
      undefined,
      write,
    );
  return {
    async getJob(namespace, name) {
      try {
        return await jobs.get(namespace, name, '0');
      } catch (err) {
        if (notFound(err)) return undefined;
        throw err;
      }
    },
    getJobFresh: (namespace, name) => jobs.get(namespace, name),
    listPods: async (namespace) =>
      (await pods.list(namespace, { predicate: buildPredicate(pods.def), resourceVersion: '0' })).items,
    async createPod(namespace, pod, job) {
      try {
        const created = await pods.create(namespace, pod, write);
        record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
      } catch (err) {
        if (!namespaceTerminating(err)) record(job, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        throw err;
      }
    },
    async deletePod(namespace, name, job) {
      try {
        await deleteObject(pods, namespace, name, { user });
        record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
      } catch (err) {
        if (!notFound(err)) record(job, 'Warning', 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
        throw err;
      }
    },
    async removeTrackingFinalizer(pod) {
      if (!(pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) return;
      await patchPod(pod, (cur) => {
        const rest = (cur.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
        return { ...cur, metadata: { ...cur.metadata, finalizers: rest } };
      });
    },
    async adoptPod(pod: Pod, ref: OwnerReference) {
      await patchPod(pod, (cur) => {
        const other = controllerOf(cur);
        if (other && other.uid !== ref.uid)
          throw changed(pod, `it is already controlled by ${other.kind} ${other.name}`);
        if (other) return cur;
        const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
        const finalizers = cur.metadata.finalizers ?? [];
        return {
          ...cur,
          metadata: {
            ...cur.metadata,
            ownerReferences: [...refs, ref],
            finalizers: finalizers.includes(JOB_TRACKING_FINALIZER)
              ? finalizers
              : [...finalizers, JOB_TRACKING_FINALIZER],
          },
        };
      });
    },
    async releasePod(pod: Pod, ownerUid: string) {
      await patchPod(pod, (cur) => {
        const refs = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
        const { ownerReferences: _dropped, ...rest } = cur.metadata;
        return { ...cur, metadata: refs.length ? { ...rest, ownerReferences: refs } : rest };
      });
    },
    updateStatus: (job) =>
      jobs.update(
        job.metadata.namespace ?? '',
        job.metadata.name ?? '',
        (cur) => {
          if (cur.metadata.uid !== job.metadata.uid || cur.metadata.resourceVersion !== job.metadata.resourceVersion)
            throw conflict('jobs', job.metadata.name ?? '', MODIFIED, 'batch');
          return { ...cur, status: job.status };
        },
        statusSub,
        write,
      ),
    recordEvent: record,
  };
}
