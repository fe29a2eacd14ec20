/**
 * The CronJob strategy of Kubernetes 1.33 (pkg/registry/batch/cronjob/strategy.go, batch/v1
 * defaults.go): defaults, status cleared on create and kept on update, generation 1 then +1
 * per spec change; a `/status` write is not validated, as upstream's status strategy.
 */
import type { Strategy } from '../../registry/types.js';
import { semanticEqual } from '../jobs/go-values.js';
import { defaultJobSpecParts } from '../jobs/jobs.strategy.js';
import type { CronJob } from './cronjobs.schema.js';
import { validateCronJob, validateCronJobUpdate } from './cronjobs.validation.js';

/** SetDefaults_CronJob of batch/v1 (and of 1.10's batch/v1beta1): Allow, not suspended, history limits 3 and 1. */
export function defaultCronJob(obj: CronJob): void {
  defaultCronJobCommon(obj);
  const spec = (obj.spec ??= {});
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
}

/** What every version defaults (1.10's batch/v2alpha1 has no history-limit defaults). */
export function defaultCronJobCommon(obj: CronJob): void {
  const spec = (obj.spec ??= {});
  spec.concurrencyPolicy ||= 'Allow';
  spec.suspend ??= false;
  const jobSpec = spec.jobTemplate?.spec;
  if (jobSpec) defaultJobSpecParts(jobSpec);
}

export const cronJobStrategy: Strategy<CronJob> = {
  defaults: defaultCronJob,
  prepareForCreate(obj) {
    obj.status = {};
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = old.status;
    const generation = old.metadata.generation ?? 0;
    obj.metadata.generation = semanticEqual(obj.spec, old.spec) ? generation : generation + 1;
  },
  validate: validateCronJob,
  validateUpdate: (obj, old) => (semanticEqual(obj.status, old.status) ? validateCronJobUpdate(obj, old) : []),
};
