/**
 * HorizontalPodAutoscaler rules of Kubernetes 1.33 pkg/apis/autoscaling/validation, on the
 * stored (autoscaling/v2) form whatever version was written: replica bounds (HPAScaleToZero off:
 * minReplicas at least 1 unless the old object already had 0), the target and metric
 * references, each metric source and its target, scaling behavior; on `/status` only the
 * replica counts. The rule list is docs/validation/horizontalpodautoscalers.md.
 */
import { validateContainerResourceName, goQuantity, quantityOfJson } from '../../api/validation/resources.js';
import { validateDns1123Label, validatePathSegmentName } from '../../api/names.js';
import { nonNegative } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { invalidPrinted } from '../jobs/go-values.js';
import type { Hpa, HpaSpec, MetricSpecV2 } from './hpa.schema.js';

const MAX_PERIOD = 1800;
const MAX_WINDOW = 3600;
const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];

type Ref = { kind?: string | null; name?: string | null };
type Target = NonNullable<NonNullable<MetricSpecV2['pods']>['target']>;
type Rules = NonNullable<NonNullable<HpaSpec['behavior']>['scaleUp']>;

/** ValidateCrossVersionObjectReference. */
function crossVersionRef(ref: Ref | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = ref?.[f] ?? '';
    if (!v) errs.push(required(`${path}.${f}`));
    else for (const m of validatePathSegmentName(v)) errs.push(invalidValue(`${path}.${f}`, v, m));
  }
  return errs;
}

/** A quantity's sign (Quantity.Sign): -1, 0 or 1. */
function sign(raw: unknown): number {
  const q = quantityOfJson(raw);
  return q ? (q.coef > 0n ? 1 : q.coef < 0n ? -1 : 0) : 0;
}

/** validateMetricTarget. */
function metricTarget(t: Target | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = t?.type ?? '';
  if (!type) errs.push(required(`${path}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type))
    errs.push(invalidValue(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  if (t?.value != null && sign(t.value) !== 1)
    errs.push(invalidPrinted(`${path}.value`, goQuantity(t.value, false), 'must be positive'));
  if (t?.averageValue != null && sign(t.averageValue) !== 1)
    errs.push(invalidPrinted(`${path}.averageValue`, goQuantity(t.averageValue, false), 'must be positive'));
  if (t?.averageUtilization != null && t.averageUtilization < 1)
    errs.push(invalidValue(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

/** validateMetricIdentifier. */
function metricIdentifier(id: { name?: string | null } | null | undefined, path: string): FieldError[] {
  const name = id?.name ?? '';
  if (!name) return [required(`${path}.name`, 'must specify a metric name')];
  return validatePathSegmentName(name).map((m) => invalidValue(`${path}.name`, name, m));
}

/** The rules of one metric source, by its field name. */
function sourceRules(kind: string, m: MetricSpecV2, path: string): FieldError[] {
  const target = `${path}.target`;
  switch (kind) {
    case 'object': {
      const src = m.object!;
      const errs = [
        ...crossVersionRef(src.describedObject, `${path}.describedObject`),
        ...metricIdentifier(src.metric, `${path}.metric`),
        ...metricTarget(src.target, target),
      ];
      if (src.target?.value == null && src.target?.averageValue == null)
        errs.push(required(`${target}.averageValue`, 'must set either a target value or averageValue'));
      return errs;
    }
    case 'external': {
      const src = m.external!;
      const errs = [...metricIdentifier(src.metric, `${path}.metric`), ...metricTarget(src.target, target)];
      if (src.target?.value == null && src.target?.averageValue == null)
        errs.push(required(`${target}.averageValue`, 'must set either a target value for metric or a per-pod target'));
      if (src.target?.value != null && src.target?.averageValue != null)
        errs.push(forbidden(`${target}.value`, 'may not set both a target value for metric and a per-pod target'));
      return errs;
    }
    case 'pods': {
      const src = m.pods!;
      const errs = [...metricIdentifier(src.metric, `${path}.metric`), ...metricTarget(src.target, target)];
      if (src.target?.averageValue == null)
        errs.push(required(`${target}.averageValue`, 'must specify a positive target averageValue'));
      return errs;
    }
    default: {
      const container = kind === 'containerResource';
      const src = (container ? m.containerResource : m.resource)!;
      const errs: FieldError[] = [];
      const name = src.name ?? '';
      if (!name) errs.push(required(`${path}.name`, 'must specify a resource name'));
      else if (container) errs.push(...validateContainerResourceName(name, `${path}.name`));
      if (container) {
        const c = m.containerResource?.container ?? '';
        if (!c) errs.push(required(`${path}.container`, 'must specify a container'));
        else errs.push(...validateDns1123Label(c).map((msg) => invalidValue(`${path}.container`, c, msg)));
      }
      errs.push(...metricTarget(src.target, target));
      if (src.target?.averageUtilization == null && src.target?.averageValue == null)
        errs.push(
          required(`${target}.averageUtilization`, 'must set either a target raw value or a target utilization'),
        );
      if (src.target?.averageUtilization != null && src.target?.averageValue != null)
        errs.push(forbidden(`${target}.averageValue`, 'may not set both a target raw value and a target utilization'));
      return errs;
    }
  }
}

const FIELD_OF: Record<string, keyof MetricSpecV2> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

/** validateMetricSpec. */
function metricSpec(m: MetricSpecV2, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = m.type ?? '';
  if (!type) errs.push(required(`${path}.type`, 'must specify a metric source type'));
  if (!SOURCE_TYPES.includes(type)) errs.push(notSupported(`${path}.type`, type, SOURCE_TYPES));
  const present: string[] = [];
  for (const kind of ['object', 'external', 'pods', 'resource', 'containerResource'] as const) {
    if (m[kind] == null) continue;
    present.push(kind);
    if (present.length === 1) errs.push(...sourceRules(kind, m, `${path}.${kind}`));
  }
  const expected = FIELD_OF[type];
  if (expected) {
    if (m[expected] == null)
      errs.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  } else errs.push(notSupported(`${path}.type`, type, SOURCE_TYPES));
  if (present.length !== 1)
    for (const kind of present.filter((k) => k !== expected).sort())
      errs.push(forbidden(`${path}.${kind}`, 'must populate the given metric source only'));
  return errs;
}

/** validateScalingRules. */
function scalingRules(rules: Rules | null | undefined, path: string): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window != null && window < 0)
    errs.push(invalidValue(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (window != null && window > MAX_WINDOW)
    errs.push(
      invalidValue(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_WINDOW}`),
    );
  if (rules.selectPolicy != null && !SELECT_POLICIES.includes(rules.selectPolicy))
    errs.push(notSupported(`${path}.selectPolicy`, rules.selectPolicy, SELECT_POLICIES));
  const policies = rules.policies ?? [];
  if (!policies.length) errs.push(required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const at = `${path}.policies[${i}]`;
    if (!POLICY_TYPES.includes(p.type ?? '')) errs.push(notSupported(`${at}.type`, p.type ?? '', POLICY_TYPES));
    if ((p.value ?? 0) <= 0) errs.push(invalidValue(`${at}.value`, p.value ?? 0, 'must be greater than zero'));
    const period = p.periodSeconds ?? 0;
    if (period <= 0) errs.push(invalidValue(`${at}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD)
      errs.push(invalidValue(`${at}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD}`));
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec with the lower bound of minReplicas. */
function validateSpec(spec: HpaSpec, minLower: number): FieldError[] {
  const errs: FieldError[] = [];
  const { minReplicas } = spec;
  const max = spec.maxReplicas ?? 0;
  if (minReplicas != null && minReplicas < minLower)
    errs.push(invalidValue('spec.minReplicas', minReplicas, `must be greater than or equal to ${minLower}`));
  if (max < 1) errs.push(invalidValue('spec.maxReplicas', max, 'must be greater than 0'));
  if (minReplicas != null && max < minReplicas)
    errs.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...crossVersionRef(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  const metrics = spec.metrics ?? [];
  metrics.forEach((m, i) => errs.push(...metricSpec(m, `spec.metrics[${i}]`)));
  if (minReplicas === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External'))
    errs.push(
      forbidden(
        'spec.metrics',
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  errs.push(...scalingRules(spec.behavior?.scaleUp, 'spec.behavior.scaleUp'));
  errs.push(...scalingRules(spec.behavior?.scaleDown, 'spec.behavior.scaleDown'));
  return errs;
}

/** Upstream ValidateHorizontalPodAutoscaler (metadata rules are the store's). */
export const validateHpa = (obj: Hpa): FieldError[] => validateSpec(obj.spec ?? {}, 1);

/** Upstream ValidateHorizontalPodAutoscalerUpdate: minReplicas 0 stays allowed where it already was. */
export function validateHpaUpdate(obj: Hpa, old: Hpa): FieldError[] {
  return validateSpec(obj.spec ?? {}, old.spec?.minReplicas === 0 ? 0 : 1);
}

/** Upstream ValidateHorizontalPodAutoscalerStatusUpdate. */
export function validateHpaStatus(obj: Hpa): FieldError[] {
  const s = obj.status ?? {};
  return [
    ...nonNegative(s.currentReplicas ?? 0, 'status.currentReplicas'),
    ...nonNegative(s.desiredReplicas ?? 0, 'status.desiredReplicas'),
  ];
}
