/**
 * JobSpec rules of Kubernetes 1.33 pkg/apis/batch/validation (validateJobSpec, ValidateJobSpec,
 * ValidateJobTemplateSpec): counts, indexed-mode limits, managedBy, podFailurePolicy,
 * successPolicy, podReplacementPolicy, the pod template and its restartPolicy. Feature gates
 * at 1.33's defaults (every Job feature on). The rule list is docs/validation/jobs.md.
 */
import { validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import { dns1123Subdomain, nonNegative, regexError } from '../../api/core/validation/strings.js';
import { validateQualifiedName } from '../../api/names.js';
import {
  duplicate,
  invalidValue,
  notSupported,
  required,
  tooMany,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { invalidNoValue, invalidPrinted, tooLongBytes } from './go-values.js';
import { validateIndexesFormat } from './indexes.js';
import { goLabelSelector, selectorMatches, validateLabelSelector } from './selector.js';
import type { JobSpec } from './jobs.schema.js';
import { goStringMap } from '../../api/core/validation/strings.js';

const MAX_PARALLELISM_INDEXED = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_POD_CONDITION_PATTERNS = 20;
const MAX_MANAGED_BY = 63;
const MAX_SUCCEEDED_INDEXES = 64 * 1024;
const MAX_SUCCESS_RULES = 20;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** apimachinery IsDomainPrefixedPath. */
function domainPrefixedPath(value: string, field: string): FieldError[] {
  if (!value) return [required(field)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || !host || !path)
    return [invalidValue(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = dns1123Subdomain(host, field);
  if (!new RegExp(`^${HTTP_PATH}$`).test(path))
    errs.push(invalidValue(field, path, regexError('Invalid path', HTTP_PATH)));
  return errs;
}

type Rule = NonNullable<JobSpec['podFailurePolicy']>['rules'][number];

function onExitCodes(req: NonNullable<Rule['onExitCodes']>, path: string, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!req.operator) errs.push(required(`${path}.operator`, `valid values: ["In" "NotIn"]`));
  else if (!OPERATORS.includes(req.operator)) errs.push(notSupported(`${path}.operator`, req.operator, OPERATORS));
  if (isSet(req.containerName) && !containers.has(req.containerName))
    errs.push(
      invalidValue(
        `${path}.containerName`,
        req.containerName,
        'must be one of the container or initContainer names in the pod template',
      ),
    );
  const values = req.values ?? [];
  if (!values.length) errs.push(invalidPrinted(`${path}.values`, '[]int32{}', 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES)
    errs.push(tooMany(`${path}.values`, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  values.forEach((v, j) => {
    if (req.operator === 'In' && v === 0)
      errs.push(invalidValue(`${path}.values[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(`${path}.values[${j}]`, v));
    else seen.add(v);
  });
  if (values.some((v, j) => j > 0 && values[j - 1]! > v))
    errs.push(invalidPrinted(`${path}.values`, `[]int32{${values.join(', ')}}`, 'must be ordered'));
  return errs;
}

function podFailureRule(spec: JobSpec, rule: Rule, path: string, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.action) errs.push(required(`${path}.action`, `valid values: ["Count" "FailIndex" "FailJob" "Ignore"]`));
  else if (rule.action === 'FailIndex') {
    if (!isSet(spec.backoffLimitPerIndex))
      errs.push(invalidValue(`${path}.action`, rule.action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(rule.action)) errs.push(notSupported(`${path}.action`, rule.action, ACTIONS));
  if (rule.onExitCodes) errs.push(...onExitCodes(rule.onExitCodes, `${path}.onExitCodes`, containers));
  const patterns = rule.onPodConditions ?? [];
  if (patterns.length) {
    const at = `${path}.onPodConditions`;
    if (patterns.length > MAX_POD_CONDITION_PATTERNS)
      errs.push(tooMany(at, patterns.length, MAX_POD_CONDITION_PATTERNS));
    patterns.forEach((p, j) => {
      for (const m of validateQualifiedName(p.type)) errs.push(invalidValue(`${at}[${j}].type`, p.type, m));
      if (!p.status) errs.push(required(`${at}[${j}].status`, `valid values: ["False" "True" "Unknown"]`));
      else if (!CONDITION_STATUSES.includes(p.status))
        errs.push(notSupported(`${at}[${j}].status`, p.status, CONDITION_STATUSES));
    });
  }
  if (rule.onExitCodes && patterns.length)
    errs.push(invalidNoValue(path, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!rule.onExitCodes && !patterns.length)
    errs.push(invalidNoValue(path, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

function successPolicy(spec: JobSpec, path: string): FieldError[] {
  const rules = spec.successPolicy?.rules ?? [];
  const errs: FieldError[] = [];
  if (!rules.length)
    errs.push(required(`${path}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_RULES) errs.push(tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_RULES));
  const completions = spec.completions ?? 0;
  rules.forEach((rule, i) => {
    const at = `${path}.rules[${i}]`;
    if (!isSet(rule.succeededCount) && !isSet(rule.succeededIndexes))
      errs.push(required(at, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (isSet(rule.succeededIndexes)) {
      if (Buffer.byteLength(rule.succeededIndexes) > MAX_SUCCEEDED_INDEXES)
        errs.push(tooLongBytes(`${at}.succeededIndexes`, MAX_SUCCEEDED_INDEXES));
      const parsed = validateIndexesFormat(rule.succeededIndexes, completions);
      if (typeof parsed === 'string')
        errs.push(
          invalidValue(`${at}.succeededIndexes`, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed}`),
        );
      else total = parsed;
    }
    if (isSet(rule.succeededCount)) {
      const count = rule.succeededCount;
      errs.push(...nonNegative(count, `${at}.succeededCount`));
      if (count > completions)
        errs.push(
          invalidValue(
            `${at}.succeededCount`,
            count,
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        );
      if (isSet(rule.succeededIndexes) && count > total)
        errs.push(
          invalidValue(
            `${at}.succeededCount`,
            count,
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        );
    }
  });
  return errs;
}

/** The counts and the indexed-mode rules of validateJobSpec. */
function countRules(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'])
    errs.push(...nonNegative(spec[f as keyof JobSpec], `${path}.${f}`));
  errs.push(...nonNegative(spec.backoffLimitPerIndex, `${path}.backoffLimitPerIndex`));
  if (isSet(spec.maxFailedIndexes)) {
    errs.push(...nonNegative(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (!isSet(spec.backoffLimitPerIndex))
      errs.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (isSet(spec.managedBy)) {
    errs.push(...domainPrefixedPath(spec.managedBy, `${path}.managedBy`));
    if (spec.managedBy.length > MAX_MANAGED_BY) errs.push(tooLongBytes(`${path}.managedBy`, MAX_MANAGED_BY));
  }
  const mode = spec.completionMode;
  if (isSet(mode)) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed')
      errs.push(notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      const { completions, parallelism, maxFailedIndexes } = spec;
      if (!isSet(completions)) errs.push(required(`${path}.completions`, 'when completion mode is Indexed'));
      if (isSet(parallelism) && parallelism > MAX_PARALLELISM_INDEXED)
        errs.push(
          invalidValue(
            `${path}.parallelism`,
            parallelism,
            `must be less than or equal to 100000 when completion mode is Indexed`,
          ),
        );
      if (isSet(completions) && isSet(maxFailedIndexes) && maxFailedIndexes > completions)
        errs.push(
          invalidValue(`${path}.maxFailedIndexes`, maxFailedIndexes, 'must be less than or equal to completions'),
        );
      if (isSet(maxFailedIndexes) && maxFailedIndexes > MAX_FAILED_INDEXES)
        errs.push(invalidValue(`${path}.maxFailedIndexes`, maxFailedIndexes, 'must be less than or equal to 100000'));
      if (isSet(completions) && completions > COMPLETIONS_SOFT_LIMIT && isSet(spec.backoffLimitPerIndex)) {
        const suffix = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (!isSet(maxFailedIndexes))
          errs.push(
            required(
              `${path}.maxFailedIndexes`,
              `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
            ),
          );
        if (isSet(parallelism) && parallelism > PARALLELISM_HIGH_COMPLETIONS)
          errs.push(invalidValue(`${path}.parallelism`, parallelism, `must be less than or equal to 10000 ${suffix}`));
        if (isSet(maxFailedIndexes) && maxFailedIndexes > MAX_FAILED_INDEXES_HIGH_COMPLETIONS)
          errs.push(
            invalidValue(`${path}.maxFailedIndexes`, maxFailedIndexes, `must be less than or equal to 10000 ${suffix}`),
          );
      }
    }
  }
  if (!isSet(mode) || mode === 'NonIndexed') {
    if (isSet(spec.backoffLimitPerIndex))
      errs.push(
        invalidValue(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex, 'requires indexed completion mode'),
      );
    if (isSet(spec.maxFailedIndexes))
      errs.push(invalidValue(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  return errs;
}

/** Upstream validateJobSpec: the rules a Job's spec and a CronJob's jobTemplate.spec share. */
export function validateJobSpecFields(spec: JobSpec, path: string): FieldError[] {
  const errs = countRules(spec, path);
  const podSpec = spec.template?.spec;
  if (spec.podFailurePolicy) {
    const rules = spec.podFailurePolicy.rules ?? [];
    const at = `${path}.podFailurePolicy.rules`;
    if (rules.length > MAX_POD_FAILURE_RULES) errs.push(tooMany(at, rules.length, MAX_POD_FAILURE_RULES));
    const containers = new Set([...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])].map((c) => c.name));
    rules.forEach((rule, i) => errs.push(...podFailureRule(spec, rule, `${at}[${i}]`, containers)));
  }
  if (spec.successPolicy) {
    if (spec.completionMode !== 'Indexed')
      errs.push(
        invalidPrinted(`${path}.successPolicy`, 'batch.SuccessPolicy{...}', 'requires indexed completion mode'),
      );
    else errs.push(...successPolicy(spec, `${path}.successPolicy`));
  }
  const replacement = spec.podReplacementPolicy;
  if (isSet(replacement)) {
    if (spec.podFailurePolicy) {
      if (replacement !== 'Failed') errs.push(notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed']));
    } else if (replacement !== 'Failed' && replacement !== 'TerminatingOrFailed')
      errs.push(notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed', 'TerminatingOrFailed']));
  }
  errs.push(...validatePodTemplateSpec(spec.template ?? {}, `${path}.template`));
  const restart = podSpec?.restartPolicy ?? '';
  const restartPath = `${path}.template.spec.restartPolicy`;
  if (restart === 'Always' || restart === '') errs.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restart !== 'OnFailure' && restart !== 'Never')
    errs.push(notSupported(restartPath, restart, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy && restart !== 'Never')
    errs.push(invalidValue(restartPath, restart, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** Upstream ValidateJobSpec: validateJobSpec, a valid selector that selects the template's labels. */
export function validateJobSpec(spec: JobSpec, path: string, allowInvalidSelectorValues = false): FieldError[] {
  const errs = validateJobSpecFields(spec, path);
  if (!spec.selector) errs.push(required(`${path}.selector`));
  else errs.push(...validateLabelSelector(spec.selector, `${path}.selector`, allowInvalidSelectorValues));
  const labels = spec.template?.metadata?.labels;
  if (spec.selector && selectorMatches(spec.selector, labels) === false)
    errs.push(
      invalidPrinted(
        `${path}.template.metadata.labels`,
        goStringMap(labels),
        '`selector` does not match template `labels`',
      ),
    );
  return errs;
}

/** Upstream ValidateJobTemplateSpec (a CronJob's jobTemplate): no selector, no manualSelector. */
export function validateJobTemplateSpec(spec: JobSpec, path: string): FieldError[] {
  const errs = validateJobSpecFields(spec, `${path}.spec`);
  if (spec.selector)
    errs.push(
      invalidPrinted(`${path}.spec.selector`, goLabelSelector(spec.selector), '`selector` will be auto-generated'),
    );
  if (spec.manualSelector === true) errs.push(notSupported(`${path}.spec.manualSelector`, true, ['nil', 'false']));
  return errs;
}
