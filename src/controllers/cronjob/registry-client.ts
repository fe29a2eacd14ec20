/**
 * The CronJob controller's reads and writes on this server's stores (upstream's listers and
 * realJobControl / realCJControl): cached reads from the watch cache (resourceVersion '0'),
 * fresh reads where upstream asks the API server, and writes through the stores (so admission
 * runs) as the controller's service account `system:serviceaccount:kube-system:
 * cronjob-controller`, field manager kube-controller-manager. Jobs are deleted with
 * propagationPolicy Background; the status is written through cronjobs/status and refused
 * (409) when the CronJob changed since it was read, as upstream's UpdateStatus is.
 */
import type { WriterInfo } from '../../registry/access.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import { ApiError, conflict, OPTIMISTIC_LOCK_MESSAGE } from '../../errors/api-error.js';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { CONTROLLER_FIELD_MANAGER } from '../controller-user.js';
import type { CronJobKeyContext } from './reconcile.js';
import type { CronJobClient } from './sync.js';

/** The client and cached reads over `cronJobs` and `jobs`, writing as `user`. */
export function registryCronJobClient(
  cronJobs: GenericStore<CronJob>,
  jobs: GenericStore<Job>,
  user: WriterInfo,
): CronJobClient & Pick<CronJobKeyContext, 'getCached' | 'listJobs'> {
  const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
  const status = cronJobs.def.subresources.find((s) => s.name === 'status');
  return {
    async getCached(namespace, name) {
      try {
        return await cronJobs.get(namespace, name, '0');
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
    listJobs: async (namespace) =>
      (await jobs.list(namespace, { predicate: buildPredicate(jobs.def), resourceVersion: '0' })).items,
    getCronJob: (namespace, name) => cronJobs.get(namespace, name),
    getJob: (namespace, name) => jobs.get(namespace, name),
    createJob: (namespace, job) => jobs.create(namespace, job, write),
    async deleteJob(namespace, name) {
      await deleteObject(jobs, namespace, name, { user, propagationPolicy: 'Background' });
    },
    updateStatus: (cj) =>
      cronJobs.update(
        cj.metadata.namespace ?? '',
        cj.metadata.name ?? '',
        (cur) => {
          if (cur.metadata.uid !== cj.metadata.uid || cur.metadata.resourceVersion !== cj.metadata.resourceVersion)
            throw conflict('cronjobs', cj.metadata.name ?? '', OPTIMISTIC_LOCK_MESSAGE, 'batch');
          return { ...cur, status: cj.status };
        },
        status,
        write,
      ),
  };
}
