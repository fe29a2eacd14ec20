/**
 * CronJob fields: batch/v1 as Kubernetes 1.33 has them (the storage version), and batch/v1beta1
 * and batch/v2alpha1 as 1.10 had them (no timeZone, no lastSuccessfulTime, and a jobTemplate
 * whose spec is 1.10's JobSpec), from k8s.io/api batch types.go of each release.
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { declared } from '../../api/core/patch-info.js';
import { bool, int, labelSelector, list, obj, objectReference, reqObj, str, time } from '../../api/core/schema-kit.js';
import { jobSpecShape, podTemplateSpec } from '../jobs/jobs.schema.js';

const specDocs = {
  concurrencyPolicy:
    'How concurrent runs are treated: Allow (default), Forbid (skip a run while the previous one is running) or Replace.',
  failedJobsHistoryLimit: 'Finished failed jobs to keep (default 1).',
  schedule: 'When to run, in cron format (https://en.wikipedia.org/wiki/Cron), or a descriptor such as @hourly.',
  startingDeadlineSeconds: 'Seconds after a missed scheduled time within which the run may still start.',
  successfulJobsHistoryLimit: 'Finished successful jobs to keep (default 3).',
  suspend: 'When true, later runs are not started; running ones are not affected (default false).',
};

const statusShape = {
  active: declared(list(reqObj(objectReference)), { listType: 'atomic' }).describe('The jobs currently running.'),
  lastScheduleTime: time.describe('Last time a job was successfully scheduled.'),
};

export const cronJobSchema = kindSchema({
  spec: obj({
    concurrencyPolicy: str.describe(specDocs.concurrencyPolicy),
    failedJobsHistoryLimit: int.describe(specDocs.failedJobsHistoryLimit),
    jobTemplate: obj({
      metadata: strictObjectMeta,
      spec: obj(jobSpecShape).describe('The job created at each scheduled time.'),
    }).describe('The job created at each scheduled time: its metadata and spec.'),
    schedule: str.describe(specDocs.schedule),
    startingDeadlineSeconds: int.describe(specDocs.startingDeadlineSeconds),
    successfulJobsHistoryLimit: int.describe(specDocs.successfulJobsHistoryLimit),
    suspend: bool.describe(specDocs.suspend),
    timeZone: str.describe('IANA time zone of the schedule (e.g. Etc/UTC); the controller manager’s zone when unset.'),
  }).describe('When and what the cron job runs.'),
  status: obj({
    ...statusShape,
    lastSuccessfulTime: time.describe('Last time a job completed successfully.'),
  }).describe('Current state of the cron job.'),
});

/** 1.10's batch/v1 JobSpec, as a 1.10 CronJob's jobTemplate carries it. */
const jobSpec110 = obj({
  activeDeadlineSeconds: jobSpecShape.activeDeadlineSeconds,
  backoffLimit: jobSpecShape.backoffLimit,
  completions: jobSpecShape.completions,
  manualSelector: jobSpecShape.manualSelector,
  parallelism: jobSpecShape.parallelism,
  selector: labelSelector.describe('Label query over the pods of the job; generated unless manualSelector is true.'),
  template: podTemplateSpec.describe('Pod created by the job; restartPolicy Never or OnFailure.'),
});

/** batch/v1beta1 and batch/v2alpha1 CronJob (1.10). */
export const cronJobSchema110 = kindSchema({
  spec: obj({
    concurrencyPolicy: str.describe(specDocs.concurrencyPolicy),
    failedJobsHistoryLimit: int.describe(specDocs.failedJobsHistoryLimit),
    jobTemplate: obj({
      metadata: strictObjectMeta,
      spec: jobSpec110.describe('The job created at each scheduled time.'),
    }).describe('The job created at each scheduled time: its metadata and spec.'),
    schedule: str.describe(specDocs.schedule),
    startingDeadlineSeconds: int.describe(specDocs.startingDeadlineSeconds),
    successfulJobsHistoryLimit: int.describe(specDocs.successfulJobsHistoryLimit),
    suspend: bool.describe(specDocs.suspend),
  }).describe('When and what the cron job runs.'),
  status: obj(statusShape).describe('Current state of the cron job.'),
});

/** A CronJob (batch/v1) as its schema describes it. */
export type CronJob = KindObject<typeof cronJobSchema>;
export type CronJobSpec = NonNullable<CronJob['spec']>;
