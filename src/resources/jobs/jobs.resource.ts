/**
 * Job (batch/v1) as Kubernetes 1.33 serves it: `jobs` and `jobs/status`, no short name,
 * category `all`, the field selector `status.successful` (upstream JobToSelectableFields).
 * Schema in jobs.schema.ts, strategy in jobs.strategy.ts, rules in job-*.validation.ts.
 */
import { defineResource, statusSubresource } from '../define.js';
import { JOB_MESSAGES } from './jobs.protobuf.js';
import { jobSchema, type Job } from './jobs.schema.js';
import { jobStrategy } from './jobs.strategy.js';
import { jobPrinter } from './jobs.table.js';

export const jobs = defineResource({
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  description: 'Job runs pods until a given number of them complete successfully.',
  plural: 'jobs',
  namespaced: true,
  categories: ['all'],
  schema: jobSchema,
  printer: jobPrinter,
  protobuf: { 'batch/v1': JOB_MESSAGES },
  subresources: [statusSubresource<Job>('Job')],
  strategy: jobStrategy,
  selectableFields: ['status.successful'],
  fieldSet: (obj) => ({ 'status.successful': String(obj.status?.succeeded ?? 0) }),
});
