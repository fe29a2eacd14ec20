/**
 * The Job strategy of Kubernetes 1.33 (pkg/registry/batch/job/strategy.go and
 * pkg/apis/batch/v1 defaults.go): defaults, the generated selector and template labels
 * (`controller-uid`, `job-name` and their `batch.kubernetes.io/` forms) unless manualSelector,
 * status cleared on create and kept on update, generation 1 then +1 per spec change, and the
 * create, update and `/status` rules.
 */
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import { validateDns1123Label } from '../../api/names.js';
import { goStringMap } from '../../api/core/validation/strings.js';
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import type { Strategy } from '../../registry/types.js';
import { invalidPrinted, semanticEqual } from './go-values.js';
import { validateJobStatusUpdate } from './job-status.validation.js';
import { validateJobSpec } from './job-spec.validation.js';
import type { Job, JobSpec } from './jobs.schema.js';
import { goLabelSelector, hasInvalidLabelValue, selectorMatches } from './selector.js';

export const CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME = 'batch.kubernetes.io/job-name';
const LEGACY_UID = 'controller-uid';
const LEGACY_NAME = 'job-name';
const MAX_INT32 = 2147483647;

/** Upstream SetDefaults_Job (1.33, every gate at its default) and the template's PodSpec defaults. */
export function defaultJob(obj: Job): void {
  const spec = (obj.spec ??= {});
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex != null ? MAX_INT32 : 6;
  const labels = spec.template?.metadata?.labels;
  if (labels && !Object.keys(obj.metadata.labels ?? {}).length) obj.metadata.labels = { ...labels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  defaultJobSpecParts(spec);
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
}

/** The defaults a JobSpec gets wherever it is (a Job, a CronJob's jobTemplate): pod failure patterns, the pod spec. */
export function defaultJobSpecParts(spec: JobSpec): void {
  for (const rule of spec.podFailurePolicy?.rules ?? [])
    for (const pattern of rule.onPodConditions ?? []) pattern.status ||= 'True';
  defaultPodSpec(spec.template?.spec);
}

/** generateSelector: labels that tie the pods to this job, and a selector of its uid. */
function generateSelector(obj: Job): void {
  const spec = (obj.spec ??= {});
  const template = (spec.template ??= {});
  const meta = (template.metadata ??= {});
  const labels = (meta.labels ??= {});
  const name = obj.metadata.name ?? '';
  const uid = obj.metadata.uid ?? '';
  for (const key of [LEGACY_NAME, JOB_NAME]) if (!(key in labels)) labels[key] = name;
  for (const key of [LEGACY_UID, CONTROLLER_UID]) if (!(key in labels)) labels[key] = uid;
  const selector = (spec.selector ??= {});
  const matchLabels = (selector.matchLabels ??= {});
  if (!(CONTROLLER_UID in matchLabels)) matchLabels[CONTROLLER_UID] = uid;
}

/** ValidateHasLabel. */
function hasLabel(labels: Record<string, string> | null | undefined, key: string, expected: string): FieldError[] {
  const field = `spec.template.metadata.labels[${key}]`;
  if (!labels || !(key in labels)) return [required(field, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalidPrinted(field, goStringMap(labels), `must be '${expected}'`)];
}

/** validateGeneratedSelector: the generated labels are there and the selector selects them. */
function generatedSelector(obj: Job, prefixed: boolean): FieldError[] {
  const spec = obj.spec ?? {};
  if (spec.manualSelector === true || !spec.selector) return [];
  const name = obj.metadata.name ?? '';
  const uid = obj.metadata.uid ?? '';
  const labels = spec.template?.metadata?.labels;
  const errs: FieldError[] = uid ? [] : [required('metadata.uid')];
  errs.push(...hasLabel(labels, LEGACY_UID, uid), ...hasLabel(labels, LEGACY_NAME, name));
  const expected: Record<string, string> = { [LEGACY_UID]: uid, [LEGACY_NAME]: name };
  if (prefixed) {
    errs.push(...hasLabel(labels, CONTROLLER_UID, uid), ...hasLabel(labels, JOB_NAME, name));
    Object.assign(expected, { [CONTROLLER_UID]: uid, [JOB_NAME]: name });
  }
  if (selectorMatches(spec.selector, expected) === false)
    errs.push(invalidPrinted('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  return errs;
}

/** Upstream ValidateJob (metadata rules are the store's). */
function validateJob(obj: Job, prefixed: boolean, allowInvalidSelectorValues: boolean): FieldError[] {
  const spec = obj.spec ?? {};
  const errs = [...generatedSelector(obj, prefixed), ...validateJobSpec(spec, 'spec', allowInvalidSelectorValues)];
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
    const hostname = `${obj.metadata.name ?? ''}-${spec.completions - 1}`;
    if (validateDns1123Label(hostname).length)
      errs.push(
        invalidValue(
          'metadata.name',
          obj.metadata.name,
          `will not able to create pod with invalid DNS label: ${hostname}`,
        ),
      );
  }
  return errs;
}

const immutable = (field: string, value: unknown, printed?: string): FieldError =>
  printed === undefined
    ? invalidValue(field, value ?? null, 'field is immutable')
    : invalidPrinted(field, printed, 'field is immutable');

/** The template as compared on update: a suspended job that never started may change its scheduling directives. */
function comparableTemplate(spec: JobSpec, old: Job): JobSpec['template'] {
  const template = structuredClone(old.spec?.template ?? {});
  if (old.spec?.suspend !== true || old.status?.startTime) return template;
  const next = spec.template ?? {};
  const podSpec = (template.spec ??= { containers: [] });
  const nextAffinity = next.spec?.affinity;
  if (!nextAffinity && podSpec.affinity) {
    delete podSpec.affinity.nodeAffinity;
    if (!Object.keys(podSpec.affinity).length) delete podSpec.affinity;
  } else if (nextAffinity) podSpec.affinity = { ...podSpec.affinity, nodeAffinity: nextAffinity.nodeAffinity };
  podSpec.nodeSelector = next.spec?.nodeSelector;
  podSpec.tolerations = next.spec?.tolerations;
  template.metadata = { ...template.metadata, labels: next.metadata?.labels, annotations: next.metadata?.annotations };
  Object.assign(podSpec, { schedulingGates: (next.spec as Record<string, unknown> | undefined)?.schedulingGates });
  return template;
}

/** Upstream ValidateJobSpecUpdate's immutability rules (1.33: elastic Indexed jobs on). */
function updateRules(obj: Job, old: Job): FieldError[] {
  const spec = obj.spec ?? {};
  const prev = old.spec ?? {};
  const errs: FieldError[] = [];
  if (!semanticEqual(spec.completions, prev.completions)) {
    if (spec.completionMode !== 'Indexed') errs.push(immutable('spec.completions', spec.completions));
    else if (spec.completions != null && spec.completions !== spec.parallelism)
      errs.push(
        invalidValue('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism'),
      );
  }
  if (!semanticEqual(spec.selector, prev.selector))
    errs.push(immutable('spec.selector', null, spec.selector ? goLabelSelector(spec.selector) : 'null'));
  if (!semanticEqual(spec.template, comparableTemplate(spec, old)))
    errs.push(immutable('spec.template', null, 'core.PodTemplateSpec{...}'));
  if (!semanticEqual(spec.completionMode, prev.completionMode))
    errs.push(immutable('spec.completionMode', spec.completionMode));
  if (!semanticEqual(spec.podFailurePolicy, prev.podFailurePolicy))
    errs.push(immutable('spec.podFailurePolicy', null, spec.podFailurePolicy ? 'batch.PodFailurePolicy{...}' : 'null'));
  if (!semanticEqual(spec.backoffLimitPerIndex, prev.backoffLimitPerIndex))
    errs.push(immutable('spec.backoffLimitPerIndex', spec.backoffLimitPerIndex));
  if (!semanticEqual(spec.managedBy, prev.managedBy)) errs.push(immutable('spec.managedBy', spec.managedBy));
  if (!semanticEqual(spec.successPolicy, prev.successPolicy))
    errs.push(immutable('spec.successPolicy', null, spec.successPolicy ? 'batch.SuccessPolicy{...}' : 'null'));
  return errs;
}

/** Distinct errors, in order (upstream reports the spec rules twice on update; its message lists them once). */
const distinct = (errs: FieldError[]) =>
  errs.filter((e, i) => errs.findIndex((x) => x.field === e.field && x.message === e.message) === i);

export const jobStrategy: Strategy<Job> = {
  defaults: defaultJob,
  prepareForCreate(obj) {
    if (obj.spec?.manualSelector !== true) generateSelector(obj);
    // Upstream's defaulting runs again on every decode from storage: the labels read back are the template's.
    const labels = obj.spec?.template?.metadata?.labels;
    if (labels && !Object.keys(obj.metadata.labels ?? {}).length) obj.metadata.labels = { ...labels };
    obj.status = {};
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = old.status;
    const generation = old.metadata.generation ?? 0;
    obj.metadata.generation = semanticEqual(obj.spec, old.spec) ? generation : generation + 1;
  },
  validate: (obj) => validateJob(obj, true, false),
  validateUpdate(obj, old) {
    // A `/status` write (the spec is the stored one) runs the status strategy's rules.
    if (!semanticEqual(obj.status, old.status)) return validateJobStatusUpdate(obj, old);
    const labels = old.spec?.template?.metadata?.labels ?? {};
    const prefixed = JOB_NAME in labels && CONTROLLER_UID in labels;
    return distinct([
      ...validateJob(obj, prefixed, hasInvalidLabelValue(old.spec?.selector)),
      ...updateRules(obj, old),
    ]);
  },
};
