/**
 * CronJob: `cronjobs` and `cronjobs/status`, short name `cj`, category `all`, stored as
 * batch/v1 (Kubernetes 1.33's schema) and served also as 1.10's batch/v1beta1 and
 * batch/v2alpha1 through cronjobs.conversion.ts. Rules in cronjobs.validation.ts.
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { defineResource, statusSubresource } from '../define.js';
import { cronJobConversion } from './cronjobs.conversion.js';
import { CRONJOB_V1_MESSAGES, cronJob110Messages } from './cronjobs.protobuf.js';
import { cronJobSchema, cronJobSchema110, type CronJob } from './cronjobs.schema.js';
import { cronJobStrategy } from './cronjobs.strategy.js';
import { cronJobPrinter, printerThrough } from './cronjobs.table.js';

export const cronJobs = defineResource({
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  description: 'CronJob creates a Job at each time of its cron schedule.',
  plural: 'cronjobs',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  schema: cronJobSchema,
  printer: cronJobPrinter,
  protobuf: CRONJOB_V1_MESSAGES,
  subresources: [statusSubresource<CronJob>('CronJob')],
  strategy: cronJobStrategy,
});

/** CronJob at 1.10's `version`, over the batch/v1 storage. */
function served110(version: 'v1beta1' | 'v2alpha1'): ResourceDefinition {
  const conversion = cronJobConversion(version);
  return {
    ...cronJobs,
    version,
    schema: cronJobSchema110,
    patchMeta: patchMetaOf(cronJobSchema110),
    protobuf: cronJob110Messages(version),
    printer: printerThrough(conversion),
    conversion,
  };
}

export const cronJobsV1beta1 = served110('v1beta1');
export const cronJobsV2alpha1 = served110('v2alpha1');
