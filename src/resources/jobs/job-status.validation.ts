/**
 * Job status rules of a `jobs/status` write, as Kubernetes 1.33's job status strategy runs
 * pkg/apis/batch/validation ValidateJobStatusUpdate with JobManagedBy on (its 1.33 default):
 * counters non-negative and never decreasing, terminal conditions kept, a Complete job has
 * SuccessCriteriaMet, startTime and completionTime and no active pods, a Failed one has
 * FailureTarget, index lists well formed. Each rule that depends on a change runs only when
 * the fields it reads changed, as upstream's getStatusValidationOptions decides.
 */
import { isDeepStrictEqual } from 'node:util';
import { nonNegative } from '../../api/core/validation/strings.js';
import { duplicate, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { goTime, invalidNoValue, invalidPrinted } from './go-values.js';
import { overlapError, validateIndexesFormat } from './indexes.js';
import type { Job, JobStatus } from './jobs.schema.js';

type Conditions = JobStatus['conditions'];

/** IsConditionTrue. */
export const conditionTrue = (conditions: Conditions, type: string): boolean =>
  (conditions ?? []).some((c) => c.type === type && c.status === 'True');

const complete = (j: Job) => conditionTrue(j.status?.conditions, 'Complete');
const failed = (j: Job) => conditionTrue(j.status?.conditions, 'Failed');
const finished = (j: Job) => complete(j) || failed(j);
const successMet = (j: Job) => conditionTrue(j.status?.conditions, 'SuccessCriteriaMet');
const failureTarget = (j: Job) => conditionTrue(j.status?.conditions, 'FailureTarget');
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);
const time = (t: string | null | undefined) => (t ? goTime(t) : 'null');

function goUncounted(u: JobStatus['uncountedTerminatedPods']): string {
  const uids = (l: readonly string[] | null | undefined) =>
    l ? `[]types.UID{${l.map((x) => JSON.stringify(x)).join(', ')}}` : '[]types.UID(nil)';
  return `batch.UncountedTerminatedPods{Succeeded:${uids(u?.succeeded)}, Failed:${uids(u?.failed)}}`;
}

/** The rules of validateJobStatus that always run, or run when the fields they read changed. */
function statusRules(job: Job, old: Job): FieldError[] {
  const s: JobStatus = job.status ?? {};
  const o: JobStatus = old.status ?? {};
  const spec = job.spec ?? {};
  const errs: FieldError[] = [];
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating'] as const)
    errs.push(...nonNegative(s[f], `status.${f}`));
  const uncounted = s.uncountedTerminatedPods;
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed'] as const)
    (uncounted?.[kind] ?? []).forEach((uid, i) => {
      const at = `status.uncountedTerminatedPods.${kind}[${i}]`;
      if (!uid) errs.push(invalidValue(at, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(duplicate(at, uid));
      else seen.add(uid);
    });
  const finishedChanged = finished(old) !== finished(job);
  const completeChanged = complete(old) !== complete(job);
  const failedChanged = failed(old) !== failed(job);
  const targetChanged = failureTarget(old) !== failureTarget(job);
  const successChanged = successMet(old) !== successMet(job);
  const completedChanged = (o.completedIndexes ?? '') !== (s.completedIndexes ?? '');
  const failedIdxChanged = !same(o.failedIndexes, s.failedIndexes);
  const activeChanged = (o.active ?? 0) !== (s.active ?? 0);
  const startChanged = !same(o.startTime, s.startTime);
  const completionChanged = !same(o.completionTime, s.completionTime);
  const readyChanged = !same(o.ready, s.ready);
  const terminatingChanged = !same(o.terminating, s.terminating);
  const conditions = 'status.conditions';
  if ((completeChanged || failedChanged) && complete(job) && failed(job))
    errs.push(invalidNoValue(conditions, 'cannot set Complete=True and Failed=true conditions'));
  if ((completeChanged || targetChanged) && complete(job) && failureTarget(job))
    errs.push(invalidNoValue(conditions, 'cannot set Complete=True and FailureTarget=true conditions'));
  if ((completeChanged || completionChanged) && s.completionTime && !complete(job))
    errs.push(
      invalidPrinted(
        'status.completionTime',
        goTime(s.completionTime),
        'cannot set completionTime when there is no Complete=True condition',
      ),
    );
  if ((completeChanged || completionChanged) && !s.completionTime && complete(job))
    errs.push(required('status.completionTime', 'completionTime is required for Complete jobs'));
  if (
    (startChanged || completionChanged) &&
    s.startTime &&
    s.completionTime &&
    Date.parse(s.completionTime) < Date.parse(s.startTime)
  )
    errs.push(
      invalidPrinted(
        'status.completionTime',
        goTime(s.completionTime),
        'completionTime cannot be set before startTime',
      ),
    );
  if ((failedChanged || failedIdxChanged) && failed(job) && !failureTarget(job))
    errs.push(invalidNoValue(conditions, 'cannot set Failed=True condition without the FailureTarget=true condition'));
  if ((completeChanged || successChanged) && complete(job) && !successMet(job))
    errs.push(
      invalidNoValue(conditions, 'cannot set Complete=True condition without the SuccessCriteriaMet=true condition'),
    );
  if ((finishedChanged || activeChanged) && (s.active ?? 0) > 0 && finished(job))
    errs.push(invalidValue('status.active', s.active, 'active>0 is invalid for finished job'));
  if ((finishedChanged || startChanged) && !s.startTime && finished(job))
    errs.push(required('status.startTime', 'startTime is required for finished job'));
  const uncountedCount = (uncounted?.failed?.length ?? 0) + (uncounted?.succeeded?.length ?? 0);
  if ((finishedChanged || !same(o.uncountedTerminatedPods, uncounted)) && finished(job) && uncountedCount > 0)
    errs.push(
      invalidPrinted(
        'status.uncountedTerminatedPods',
        goUncounted(uncounted),
        'uncountedTerminatedPods needs to be empty for finished job',
      ),
    );
  const completions = spec.completions;
  if (completedChanged && typeof completions === 'number') {
    const parsed = validateIndexesFormat(s.completedIndexes ?? '', completions);
    if (typeof parsed === 'string')
      errs.push(
        invalidValue('status.completedIndexes', s.completedIndexes ?? '', `error parsing completedIndexes: ${parsed}`),
      );
  }
  const failedIndexes = s.failedIndexes;
  if (
    failedIdxChanged &&
    typeof completions === 'number' &&
    typeof spec.backoffLimitPerIndex === 'number' &&
    typeof failedIndexes === 'string'
  ) {
    const parsed = validateIndexesFormat(failedIndexes, completions);
    if (typeof parsed === 'string')
      errs.push(invalidValue('status.failedIndexes', failedIndexes, `error parsing failedIndexes: ${parsed}`));
  }
  const indexed = spec.completionMode === 'Indexed';
  if (completedChanged && s.completedIndexes && !indexed)
    errs.push(
      invalidValue(
        'status.completedIndexes',
        s.completedIndexes,
        'cannot set non-empty completedIndexes when non-indexed completion mode',
      ),
    );
  if (failedIdxChanged && typeof spec.backoffLimitPerIndex !== 'number' && typeof failedIndexes === 'string')
    errs.push(
      invalidValue(
        'status.failedIndexes',
        failedIndexes,
        'cannot set non-null failedIndexes when backoffLimitPerIndex is null',
      ),
    );
  if ((failedIdxChanged || completedChanged) && typeof completions === 'number' && typeof failedIndexes === 'string') {
    const overlap = overlapError(s.completedIndexes ?? '', failedIndexes, completions);
    if (overlap) errs.push(invalidValue('status.failedIndexes', failedIndexes, overlap));
  }
  if ((finishedChanged || terminatingChanged) && (s.terminating ?? 0) > 0 && finished(job))
    errs.push(invalidValue('status.terminating', s.terminating, 'terminating>0 is invalid for finished job'));
  if ((readyChanged || activeChanged) && typeof s.ready === 'number' && s.ready > (s.active ?? 0))
    errs.push(invalidValue('status.ready', s.ready, 'cannot set more ready pods than active'));
  if (successMet(job) && failed(job))
    errs.push(invalidNoValue(conditions, 'cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (successMet(job) && failureTarget(job))
    errs.push(invalidNoValue(conditions, 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (spec.successPolicy && !successMet(job) && complete(job))
    errs.push(
      invalidNoValue(conditions, 'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'),
    );
  return errs;
}

/** Upstream ValidateJobStatusUpdate with 1.33's options: the status rules, then the transition rules. */
export function validateJobStatusUpdate(job: Job, old: Job): FieldError[] {
  const errs = statusRules(job, old);
  const s: JobStatus = job.status ?? {};
  const o: JobStatus = old.status ?? {};
  for (const type of ['Failed', 'Complete', 'FailureTarget'])
    if (conditionTrue(o.conditions, type) && !conditionTrue(s.conditions, type))
      errs.push(invalidNoValue('status.conditions', `cannot disable the terminal ${type}=True condition`));
  if ((s.failed ?? 0) < (o.failed ?? 0))
    errs.push(invalidValue('status.failed', s.failed ?? 0, 'cannot decrease the failed counter'));
  const spec = job.spec ?? {};
  const scalable = spec.completionMode === 'Indexed' && same(spec.completions, spec.parallelism);
  if (!scalable && (s.succeeded ?? 0) < (o.succeeded ?? 0))
    errs.push(invalidValue('status.succeeded', s.succeeded ?? 0, 'cannot decrease the succeeded counter'));
  if (s.completionTime && o.completionTime && !same(s.completionTime, o.completionTime))
    errs.push(invalidPrinted('status.completionTime', time(s.completionTime), 'completionTime cannot be mutated'));
  if (o.startTime && !same(o.startTime, s.startTime) && spec.suspend !== true)
    errs.push(required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  if (successMet(old) && !successMet(job))
    errs.push(invalidNoValue('status.conditions', 'cannot disable the SuccessCriteriaMet=True condition'));
  if (complete(old) && !successMet(old) && successMet(job))
    errs.push(
      invalidNoValue(
        'status.conditions',
        'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions',
      ),
    );
  return errs;
}
