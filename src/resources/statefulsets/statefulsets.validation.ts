/**
 * StatefulSet rules of today's upstream pkg/apis/apps/validation (ValidateStatefulSetSpec,
 * ValidateStatefulSetUpdate, ValidateStatefulSetStatus, ValidateStatefulSetStatusUpdate), with
 * the ratcheting options upstream's strategy passes: on create the service name is a DNS-1123
 * label, the claim templates are valid claims and the pod template (with a volume per claim
 * template) is a valid pod template; an update skips the service name and claim templates
 * (immutable) and the pod template only when the stored one already fails. Metadata rules are
 * common (registry/metadata.ts; the name is a DNS-1123 label, see the row).
 */
import { isDeepStrictEqual } from 'node:util';
import { validatePodSpecificAnnotations, validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import { annotationKeys, dns1123Label, labels as labelRules, nonNegative } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { invalidGo } from '../../api/validation/resources.js';
import { validatePersistentVolumeClaim } from '../persistentvolumeclaims/persistentvolumeclaims.validation.js';
import type { PersistentVolumeClaim } from '../persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { StatefulSet, StatefulSetSpec } from './statefulsets.schema.js';
import type { Selector } from '../apps-common/label-selector.js';
import {
  goIntOrString,
  intOrPercentValue,
  notMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../apps-common/int-or-percent.js';
import { goLabelSelector, goStringMap, isEmptySelector, selects } from '../apps-common/label-selector.js';
import { goPointer, isEverything, selectorOrFailure, validateLabelSelector } from './workload-rules.js';

/** upstream StatefulSetValidationOptions. */
interface Options {
  readonly allowInvalidServiceName: boolean;
  readonly skipValidatePodTemplateSpec: boolean;
  readonly skipValidateVolumeClaimTemplates: boolean;
}

type Template = NonNullable<StatefulSetSpec['template']>;
type RollingUpdate = NonNullable<NonNullable<StatefulSetSpec['updateStrategy']>['rollingUpdate']>;

const RETENTION = ['Retain', 'Delete'];
export const IMMUTABLE_SPEC_MESSAGE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** Go's `%#v` of the internal RollingUpdateStatefulSetStrategy. */
const goRollingUpdate = (r: RollingUpdate) =>
  `apps.RollingUpdateStatefulSetStrategy{Partition:${r.partition ?? 0}, MaxUnavailable:${goPointer('intstr.IntOrString', r.maxUnavailable)}}`;

/** upstream validateRollingUpdateStatefulSet. */
function rollingUpdateRules(r: RollingUpdate, path: string): FieldError[] {
  const errs = nonNegative(r.partition ?? 0, `${path}.partition`);
  const max = r.maxUnavailable;
  if (max !== undefined && max !== null) {
    errs.push(...validatePositiveIntOrPercent(max, `${path}.maxUnavailable`));
    if (intOrPercentValue(max) === 0) errs.push(invalidGo(`${path}.maxUnavailable`, goIntOrString(max), 'cannot be 0'));
    errs.push(...notMoreThan100Percent(max, `${path}.maxUnavailable`));
  }
  return errs;
}

/** The pod-management-policy and update-strategy part of ValidateStatefulSetSpec. */
function policyRules(spec: StatefulSetSpec): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy ?? '';
  if (!policy) errs.push(required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(invalidValue('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  const strategy = spec.updateStrategy ?? {};
  const rolling = strategy.rollingUpdate;
  switch (strategy.type ?? '') {
    case '':
      errs.push(required('spec.updateStrategy'));
      break;
    case 'OnDelete':
      if (rolling)
        errs.push(
          invalidGo(
            'spec.updateStrategy.rollingUpdate',
            goRollingUpdate(rolling),
            "only allowed for updateStrategy 'RollingUpdate'",
          ),
        );
      break;
    case 'RollingUpdate':
      if (rolling) errs.push(...rollingUpdateRules(rolling, 'spec.updateStrategy.rollingUpdate'));
      break;
    default:
      errs.push(
        invalidGo(
          'spec.updateStrategy',
          `apps.StatefulSetUpdateStrategy{Type:${JSON.stringify(strategy.type)}, RollingUpdate:${goPointer('apps.RollingUpdateStatefulSetStrategy', rolling)}}`,
          "must be 'RollingUpdate' or 'OnDelete'",
        ),
      );
  }
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (retention) {
    for (const f of ['whenDeleted', 'whenScaled'] as const) {
      const value = retention[f] ?? '';
      if (!RETENTION.includes(value))
        errs.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, value, RETENTION));
    }
  }
  return errs;
}

/** upstream ValidateVolumeClaimTemplates: each claim's spec by the PersistentVolumeClaim kind's rules. */
function claimTemplateRules(spec: StatefulSetSpec): FieldError[] {
  return (spec.volumeClaimTemplates ?? []).flatMap((claim, i) =>
    validatePersistentVolumeClaim({ metadata: {}, spec: claim.spec } as PersistentVolumeClaim).map((e) => ({
      ...e,
      field: e.field.replace(/^spec/, `spec.volumeClaimTemplates[${i}].spec`),
    })),
  );
}

/**
 * The template as the controller makes pods of it: a persistentVolumeClaim volume per claim
 * template (named as the claim), replacing a template volume of that name, the others after it.
 */
function templateWithClaims(template: Template, spec: StatefulSetSpec): Template {
  const claims = new Map<string, unknown>();
  for (const claim of spec.volumeClaimTemplates ?? []) {
    const name = claim.metadata?.name ?? '';
    claims.set(name, { name, persistentVolumeClaim: { claimName: name } });
  }
  if (!claims.size || !template.spec) return template;
  const volumes: unknown[] = (template.spec.volumes ?? []).map((v) => claims.get(v.name) ?? v);
  const replaced = new Set((template.spec.volumes ?? []).map((v) => v.name));
  for (const [name, volume] of claims) if (!replaced.has(name)) volumes.push(volume);
  return { ...template, spec: { ...template.spec, volumes } } as Template;
}

/** upstream ValidatePodTemplateSpecForStatefulSet (the selector is one LabelSelectorAsSelector accepts). */
function templateRules(spec: StatefulSetSpec, selector: Selector, opts: Options): FieldError[] {
  const template = spec.template;
  if (!template) return [required('spec.template')];
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  if (!isEverything(selector) && !selects(selector, labels))
    errs.push(
      invalidGo('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'),
    );
  if (!opts.skipValidatePodTemplateSpec) {
    errs.push(...validatePodTemplateSpec(templateWithClaims(template, spec), 'spec.template'));
  } else {
    const annotations = template.metadata?.annotations;
    errs.push(
      ...labelRules(labels, 'spec.template.labels'),
      ...annotationKeys(annotations, 'spec.template.annotations'),
      ...validatePodSpecificAnnotations(annotations, template.spec, 'spec.template.annotations'),
    );
  }
  return errs;
}

/** upstream ValidateStatefulSetSpec. */
function specRules(spec: StatefulSetSpec, opts: Options): FieldError[] {
  const errs = policyRules(spec);
  if (!opts.skipValidateVolumeClaimTemplates) errs.push(...claimTemplateRules(spec));
  errs.push(...nonNegative(spec.replicas ?? 0, 'spec.replicas'));
  errs.push(...nonNegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'));
  if (spec.ordinals) errs.push(...nonNegative(spec.ordinals.start ?? 0, 'spec.ordinals.start'));
  if (!opts.allowInvalidServiceName && spec.serviceName)
    errs.push(...dns1123Label(spec.serviceName, 'spec.serviceName'));
  const selector = spec.selector;
  if (!selector) errs.push(required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(selector, 'spec.selector'));
    if (isEmptySelector(selector))
      errs.push(invalidGo('spec.selector', goLabelSelector(selector), 'empty selector is invalid for statefulset'));
  }
  const built = selectorOrFailure(selector);
  if (built === null)
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec.selector',
      message: `Invalid value: ${goLabelSelector(selector)}`,
    });
  else errs.push(...templateRules(spec, built, opts));
  const podSpec = spec.template?.spec;
  const restart = podSpec?.restartPolicy ?? '';
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec?.activeDeadlineSeconds !== null)
    errs.push(
      forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'),
    );
  return errs;
}

/** upstream ValidateStatefulSetStatus. */
function statusRules(obj: StatefulSet): FieldError[] {
  const s = obj.status ?? {};
  const n = (v: number | null | undefined) => v ?? 0;
  const errs = [
    ...nonNegative(n(s.replicas), 'status.replicas'),
    ...nonNegative(n(s.readyReplicas), 'status.readyReplicas'),
    ...nonNegative(n(s.currentReplicas), 'status.currentReplicas'),
    ...nonNegative(n(s.updatedReplicas), 'status.updatedReplicas'),
    ...nonNegative(n(s.availableReplicas), 'status.availableReplicas'),
    ...nonNegative(s.observedGeneration, 'status.observedGeneration'),
    ...nonNegative(s.collisionCount, 'status.collisionCount'),
  ];
  const above = 'cannot be greater than status.replicas';
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const)
    if (n(s[f]) > n(s.replicas)) errs.push(invalidValue(`status.${f}`, n(s[f]), above));
  if (n(s.availableReplicas) > n(s.readyReplicas))
    errs.push(
      invalidValue('status.availableReplicas', n(s.availableReplicas), 'cannot be greater than status.readyReplicas'),
    );
  return errs;
}

/** upstream ValidateStatefulSet (create): every option strict. */
export function validateStatefulSet(obj: StatefulSet): FieldError[] {
  return specRules(obj.spec ?? {}, {
    allowInvalidServiceName: false,
    skipValidatePodTemplateSpec: false,
    skipValidateVolumeClaimTemplates: false,
  });
}

/** Go's apiequality.Semantic.DeepEqual as far as JSON shows it: null, absent, empty lists and maps are alike. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(normalized) : undefined;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalized(v);
      if (n !== undefined && n !== null) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

/** The spec fields an update may change (upstream's clone of the old values into the new spec). */
const MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
] as const;

/**
 * upstream ValidateStatefulSetUpdate, then the status rules (a `/status` write reaches this with
 * the stored spec; the main resource keeps the stored status): the spec rules with the update's
 * options, only the MUTABLE fields changed, and collisionCount never decremented.
 */
export function validateStatefulSetUpdate(obj: StatefulSet, old: StatefulSet): FieldError[] {
  const spec = obj.spec ?? {};
  const oldSpec = old.spec ?? {};
  const oldTemplateFails =
    !oldSpec.template ||
    validatePodTemplateSpec(templateWithClaims(oldSpec.template, oldSpec), 'spec.template').length > 0;
  const errs = specRules(spec, {
    allowInvalidServiceName: true,
    skipValidatePodTemplateSpec: oldTemplateFails,
    skipValidateVolumeClaimTemplates: true,
  });
  const rest = (s: StatefulSetSpec) => {
    const copy: Record<string, unknown> = { ...s };
    for (const f of MUTABLE) delete copy[f];
    return normalized(copy);
  };
  if (!isDeepStrictEqual(rest(spec), rest(oldSpec))) errs.push(forbidden('spec', IMMUTABLE_SPEC_MESSAGE));
  errs.push(...statusRules(obj));
  const count = obj.status?.collisionCount;
  const oldCount = old.status?.collisionCount;
  // upstream IsDecremented: a count cleared, or lowered, once set.
  if (oldCount !== undefined && oldCount !== null && (count === undefined || count === null || count < oldCount))
    errs.push(invalidValue('status.collisionCount', count ?? 0, 'cannot be decremented'));
  return errs;
}
