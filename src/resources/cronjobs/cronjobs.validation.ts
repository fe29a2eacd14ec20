/**
 * CronJob rules of Kubernetes 1.33 pkg/apis/batch/validation (ValidateCronJobCreate,
 * ValidateCronJobUpdate, validateCronJobSpec): a schedule robfig/cron's ParseStandard accepts,
 * no `TZ=`/`CRON_TZ=` in a new schedule (use timeZone), a known time zone, a concurrency
 * policy, non-negative deadlines and history limits, a valid job template, and names of at
 * most 52 characters on create. The `/status` strategy checks nothing (upstream returns no errors).
 */
import { nonNegative } from '../../api/core/validation/strings.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { validateJobTemplateSpec } from '../jobs/job-spec.validation.js';
import { cronScheduleError } from './cron-schedule.js';
import type { CronJob, CronJobSpec } from './cronjobs.schema.js';
import { validateTimeZone } from './time-zone.js';

const POLICIES = ['Allow', 'Forbid', 'Replace'];
/** 63 (a Job name) less the 11 characters of the `-<timestamp>` suffix the controller adds. */
const MAX_NAME = 52;

/** validateScheduleFormat. */
function scheduleFormat(schedule: string, allowTZ: boolean, timeZone: string | null | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const field = 'spec.schedule';
  const parseError = cronScheduleError(schedule);
  if (parseError) errs.push(invalidValue(field, schedule, parseError));
  const hasTZ = schedule.includes('TZ');
  if (allowTZ && hasTZ && timeZone != null)
    errs.push(invalidValue(field, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  else if (!allowTZ && hasTZ)
    errs.push(invalidValue(field, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errs;
}

/** validateCronJobSpec; `old` on update (a schedule that already had TZ may keep it; an unchanged zone is not checked). */
function validateSpec(spec: CronJobSpec, old: CronJobSpec | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = spec.schedule ?? '';
  if (!schedule) errs.push(required('spec.schedule'));
  else errs.push(...scheduleFormat(schedule, (old?.schedule ?? '').includes('TZ'), spec.timeZone));
  errs.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!old || (old.timeZone ?? null) !== (spec.timeZone ?? null))
    errs.push(...validateTimeZone(spec.timeZone, 'spec.timeZone'));
  const policy = spec.concurrencyPolicy ?? '';
  if (!policy) errs.push(required('spec.concurrencyPolicy'));
  else if (!POLICIES.includes(policy)) errs.push(notSupported('spec.concurrencyPolicy', policy, POLICIES));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate?.spec ?? {}, 'spec.jobTemplate'));
  errs.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

/** Upstream ValidateCronJobCreate (metadata rules are the store's). */
export function validateCronJob(obj: CronJob): FieldError[] {
  const errs = validateSpec(obj.spec ?? {}, undefined);
  const name = obj.metadata.name ?? '';
  if (name.length > MAX_NAME)
    errs.push(invalidValue('metadata.name', name, `must be no more than ${MAX_NAME} characters`));
  return errs;
}

/** Upstream ValidateCronJobUpdate (names over 52 characters stay updatable). */
export function validateCronJobUpdate(obj: CronJob, old: CronJob): FieldError[] {
  return validateSpec(obj.spec ?? {}, old.spec ?? {});
}
