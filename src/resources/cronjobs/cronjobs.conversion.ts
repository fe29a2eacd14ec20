/**
 * batch/v1beta1 and batch/v2alpha1 CronJobs served over batch/v1 storage. Kubernetes 1.10's
 * versions have the same fields as batch/v1 less what was added since: a write at them stores
 * their fields as batch/v1; a read drops `spec.timeZone`, `status.lastSuccessfulTime` and the
 * jobTemplate's JobSpec fields newer than 1.10 (they are lost when the object is then written
 * back at that version, as on an upstream server that served only those versions).
 * Defaults per version: v1beta1 as batch/v1 (Allow, not suspended, history limits 3 and 1);
 * v2alpha1 only Allow and not suspended, but the stored object is read with batch/v1's
 * defaults, as upstream decodes stored objects with the storage version's defaults, so every
 * read shows the limits 3 and 1.
 */
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import type { CronJob } from './cronjobs.schema.js';
import { defaultCronJob, defaultCronJobCommon } from './cronjobs.strategy.js';

/** The JobSpec fields 1.10 had. */
const JOB_SPEC_110 = [
  'activeDeadlineSeconds',
  'backoffLimit',
  'completions',
  'manualSelector',
  'parallelism',
  'selector',
  'template',
];

const pick = (o: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

/** A stored batch/v1 CronJob as a 1.10 version serves it. */
function toV110(stored: CronJob, apiVersion: string): ApiObject {
  const { spec, status, ...rest } = structuredClone(stored);
  const out: ApiObject = { ...rest, apiVersion };
  if (spec) {
    const { timeZone: _zone, jobTemplate, ...specRest } = spec;
    out.spec = {
      ...specRest,
      ...(jobTemplate
        ? {
            jobTemplate: {
              ...jobTemplate,
              ...(jobTemplate.spec ? { spec: pick(jobTemplate.spec, JOB_SPEC_110) } : {}),
            },
          }
        : {}),
    };
  }
  if (status) {
    const { lastSuccessfulTime: _last, ...statusRest } = status;
    out.status = statusRest;
  }
  return out;
}

/** The conversion of 1.10's `version` (v1beta1 or v2alpha1) to and from batch/v1. */
export function cronJobConversion(version: 'v1beta1' | 'v2alpha1'): VersionConversion {
  const apiVersion = `batch/${version}`;
  return {
    defaults: (obj: CronJob) => (version === 'v1beta1' ? defaultCronJob(obj) : defaultCronJobCommon(obj)),
    toStorage(obj: CronJob) {
      const stored: CronJob = { ...structuredClone(obj), apiVersion: 'batch/v1' };
      defaultCronJob(stored);
      return stored;
    },
    fromStorage: (obj: CronJob) => toV110(obj, apiVersion),
  };
}
