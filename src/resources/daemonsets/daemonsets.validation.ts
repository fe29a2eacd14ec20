/**
 * DaemonSet rules of today's upstream pkg/apis/apps/validation (ValidateDaemonSetSpec,
 * ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet, validateDaemonSetStatus,
 * ValidateDaemonSetStatusUpdate) and of its strategy (pkg/registry/apps/daemonset/strategy.go
 * ValidateUpdate: the selector is immutable, except through extensions/v1beta1). The template
 * generation rules of ValidateDaemonSetSpecUpdate cannot fail here: the strategy sets it, as
 * upstream's PrepareForUpdate does. Metadata rules are common (registry/metadata.ts).
 */
import { validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import { nonNegative } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { invalidGo, notSupportedGo } from '../../api/validation/resources.js';
import {
  goIntOrString,
  intOrPercentValue,
  notMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../apps-common/int-or-percent.js';
import { goLabelSelector, goStringMap, isEmptySelector, sameSelector, selects } from '../apps-common/label-selector.js';
import {
  goPointer,
  goSelectorValue,
  hasInvalidLabelValue,
  selectorOrFailure,
  validateLabelSelector,
} from '../statefulsets/workload-rules.js';
import type { DaemonSet } from './daemonsets.schema.js';

type Spec = NonNullable<DaemonSet['spec']>;
type Strategy = NonNullable<Spec['updateStrategy']>;
type RollingUpdate = NonNullable<Strategy['rollingUpdate']>;

/** upstream ValidateRollingUpdateDaemonSet: valid values, at most 100%, exactly one of the two non-zero. */
function rollingUpdateRules(r: RollingUpdate, path: string): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(r.maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(r.maxSurge, `${path}.maxSurge`),
    ...notMoreThan100Percent(r.maxUnavailable, `${path}.maxUnavailable`),
    ...notMoreThan100Percent(r.maxSurge, `${path}.maxSurge`),
  ];
  const unavailable = intOrPercentValue(r.maxUnavailable) !== 0;
  const surge = intOrPercentValue(r.maxSurge) !== 0;
  if (unavailable && surge)
    errs.push(
      invalidGo(`${path}.maxSurge`, goIntOrString(r.maxSurge), 'may not be set when maxUnavailable is non-zero'),
    );
  else if (!unavailable && !surge) errs.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** upstream ValidateDaemonSetUpdateStrategy. */
function strategyRules(strategy: Strategy): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      return strategy.rollingUpdate
        ? rollingUpdateRules(strategy.rollingUpdate, 'spec.updateStrategy.rollingUpdate')
        : [required('spec.updateStrategy.rollingUpdate')];
    default:
      return [
        notSupportedGo(
          'spec.updateStrategy',
          `apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(strategy.type ?? '')}, RollingUpdate:${goPointer('apps.RollingUpdateDaemonSet', strategy.rollingUpdate)}}`,
          ['RollingUpdate', 'OnDelete'],
        ),
      ];
  }
}

/** upstream ValidateDaemonSetSpec; `allowInvalidValues` = AllowInvalidLabelValueInSelector. */
function specRules(spec: Spec, allowInvalidValues: boolean): FieldError[] {
  const errs = validateLabelSelector(spec.selector, 'spec.selector', allowInvalidValues);
  const template = spec.template ?? {};
  const labels = template.metadata?.labels;
  const built = selectorOrFailure(spec.selector);
  if (built !== null && !selects(built, labels))
    errs.push(
      invalidGo('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'),
    );
  if (spec.selector && isEmptySelector(spec.selector))
    errs.push(invalidGo('spec.selector', goLabelSelector(spec.selector), 'empty selector is invalid for daemonset'));
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const restart = template.spec?.restartPolicy ?? '';
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  const deadline = template.spec?.activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null)
    errs.push(
      forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'),
    );
  errs.push(...nonNegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'));
  errs.push(...strategyRules(spec.updateStrategy ?? {}));
  errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

/** upstream validateDaemonSetStatus. */
function statusRules(obj: DaemonSet): FieldError[] {
  const s = obj.status ?? {};
  const fields = [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ] as const;
  return fields.flatMap((f) => nonNegative(s[f], `status.${f}`));
}

/** upstream ValidateDaemonSet (create). */
export function validateDaemonSet(obj: DaemonSet): FieldError[] {
  return specRules(obj.spec ?? {}, false);
}

/**
 * upstream's strategy ValidateUpdate (ValidateDaemonSet and ValidateDaemonSetUpdate, invalid
 * selector values allowed when the stored selector has them), then the status rules (a `/status`
 * write reaches this with the stored spec; the main resource keeps the stored status) with
 * collisionCount never decremented. `selectorImmutable`: every version but extensions/v1beta1.
 */
export function validateDaemonSetUpdate(obj: DaemonSet, old: DaemonSet, selectorImmutable: boolean): FieldError[] {
  const errs = specRules(obj.spec ?? {}, hasInvalidLabelValue(old.spec?.selector));
  const selector = obj.spec?.selector;
  if (selectorImmutable && !sameSelector(selector, old.spec?.selector))
    errs.push(invalidGo('spec.selector', goSelectorValue(selector), 'field is immutable'));
  errs.push(...statusRules(obj));
  const count = obj.status?.collisionCount;
  const oldCount = old.status?.collisionCount;
  if (oldCount !== undefined && oldCount !== null && (count === undefined || count === null || count < oldCount))
    errs.push(invalidValue('status.collisionCount', count ?? 0, 'cannot be decremented'));
  return errs;
}
