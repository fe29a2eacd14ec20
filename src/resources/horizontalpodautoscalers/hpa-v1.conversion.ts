/**
 * autoscaling/v1 HorizontalPodAutoscalers over autoscaling/v2 storage, as Kubernetes 1.33's
 * pkg/apis/autoscaling/v1/conversion.go converts them. v1 holds one CPU utilization target;
 * the rest of v2 travels in annotations on the v1 object and comes back from them on a write:
 * `autoscaling.alpha.kubernetes.io/metrics` (metrics other than a CPU utilization target, in
 * v1's MetricSpec JSON), `.../current-metrics` (every current metric), `.../behavior` (the
 * behavior, as upstream marshals its internal type: capitalized field names) and
 * `.../conditions`. A v1 write with no metric at all gets the 80% CPU target, and the stored
 * object is read with autoscaling/v2's defaults (upstream decodes storage with them).
 */
import { isRecord } from '../../api/json.js';
import type { VersionConversion } from '../../registry/types.js';
import {
  metricSpecFromOld,
  metricSpecToOld,
  metricStatusFromOld,
  metricStatusToOld,
} from './hpa-metrics.conversion.js';
import type { Hpa, HpaSpec, MetricSpecV2, MetricStatusV2 } from './hpa.schema.js';
import { defaultCpuMetric, defaultHpaV2 } from './hpa.strategy.js';
import type { HpaV1 } from './hpa-versions.schema.js';

export const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const ROUND_TRIP = [METRICS_ANNOTATION, CURRENT_METRICS_ANNOTATION, BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION];

type Json = Record<string, unknown>;
type Behavior = NonNullable<HpaSpec['behavior']>;
type Rules = NonNullable<Behavior['scaleUp']>;

/** Annotations without the round-trip ones (DropRoundTripHorizontalPodAutoscalerAnnotations); undefined when none are left. */
export function dropRoundTrip(
  annotations: Record<string, string> | null | undefined,
): Record<string, string> | undefined {
  const out = Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => !ROUND_TRIP.includes(k)));
  return Object.keys(out).length ? out : undefined;
}

/** The behavior as upstream marshals its internal type (exported field names, nil pointers as null). */
export function behaviorAnnotation(b: Behavior): string {
  const rules = (r: Rules | null | undefined) =>
    r
      ? {
          StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
          SelectPolicy: r.selectPolicy ?? null,
          Policies: r.policies
            ? r.policies.map((p) => ({ Type: p.type, Value: p.value, PeriodSeconds: p.periodSeconds }))
            : null,
          Tolerance: r.tolerance ?? null,
        }
      : null;
  return JSON.stringify({ ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) });
}

/** A field of a Go-unmarshalled object: Go matches JSON keys to field names case-insensitively. */
function field(o: unknown, name: string): unknown {
  if (!isRecord(o)) return undefined;
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

/** The behavior an annotation holds, or undefined when it is malformed or empty (upstream keeps only well-formed data). */
export function behaviorFromAnnotation(text: string | undefined): Behavior | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const rules = (r: unknown): Rules | undefined => {
    if (!r || typeof r !== 'object') return undefined;
    const policies = field(r, 'policies');
    const out: Json = {
      stabilizationWindowSeconds: field(r, 'stabilizationWindowSeconds') ?? undefined,
      selectPolicy: field(r, 'selectPolicy') ?? undefined,
      policies: Array.isArray(policies)
        ? policies.map((p) => ({
            type: field(p, 'type'),
            value: field(p, 'value'),
            periodSeconds: field(p, 'periodSeconds'),
          }))
        : undefined,
      tolerance: field(r, 'tolerance') ?? undefined,
    };
    return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Rules;
  };
  const scaleUp = rules(field(parsed, 'scaleUp'));
  const scaleDown = rules(field(parsed, 'scaleDown'));
  if (!scaleUp && !scaleDown) return undefined;
  return { ...(scaleUp ? { scaleUp } : {}), ...(scaleDown ? { scaleDown } : {}) };
}

/** A JSON list annotation, or undefined when absent or malformed (upstream ignores those). */
function listAnnotation(text: string | undefined): Json[] | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as Json[]) : undefined;
  } catch {
    return undefined;
  }
}

const isCpuUtilization = (m: MetricSpecV2) =>
  m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.averageUtilization != null;

/** A stored autoscaling/v2 object as autoscaling/v1 serves it. */
function toV1(stored: Hpa): HpaV1 {
  const { spec = {}, status, metadata, ...rest } = structuredClone(stored);
  const annotations: Record<string, string> = dropRoundTrip(metadata.annotations) ?? {};
  const metrics = spec?.metrics ?? [];
  const cpu = metrics.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  const others = metrics.filter((m) => !isCpuUtilization(m));
  if (others.length) annotations[METRICS_ANNOTATION] = JSON.stringify(others.map((m) => metricSpecToOld(m, true)));
  const current: MetricStatusV2[] = status?.currentMetrics ?? [];
  if (current.length)
    annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(current.map((m) => metricStatusToOld(m, true)));
  if (spec?.behavior) annotations[BEHAVIOR_ANNOTATION] = behaviorAnnotation(spec.behavior);
  const conditions = status?.conditions ?? [];
  if (conditions.length)
    annotations[CONDITIONS_ANNOTATION] = JSON.stringify(
      conditions.map((c) => ({
        type: c.type,
        status: c.status,
        lastTransitionTime: c.lastTransitionTime ?? null,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {}),
      })),
    );
  const cpuNow = current
    .filter(
      (m) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current?.averageUtilization != null,
    )
    .at(-1);
  const { currentMetrics: _m, conditions: _c, ...statusRest } = status ?? {};
  const meta: typeof metadata = { ...metadata, annotations };
  if (!Object.keys(annotations).length) delete meta.annotations;
  return {
    ...rest,
    apiVersion: 'autoscaling/v1',
    metadata: meta,
    spec: {
      scaleTargetRef: spec?.scaleTargetRef ?? { kind: '', name: '' },
      minReplicas: spec?.minReplicas,
      maxReplicas: spec?.maxReplicas,
      ...(cpu?.resource?.target?.averageUtilization != null
        ? { targetCPUUtilizationPercentage: cpu.resource.target.averageUtilization }
        : {}),
    },
    ...(status
      ? {
          status: {
            ...statusRest,
            ...(cpuNow ? { currentCPUUtilizationPercentage: cpuNow.resource?.current?.averageUtilization } : {}),
          },
        }
      : {}),
  };
}

/** A v1 request as stored in autoscaling/v2. */
function fromV1(obj: HpaV1): Hpa {
  const { spec = {}, status, metadata, ...rest } = structuredClone(obj);
  const annotations = metadata.annotations ?? {};
  let metrics: MetricSpecV2[] =
    spec?.targetCPUUtilizationPercentage != null
      ? [
          {
            type: 'Resource',
            resource: {
              name: 'cpu',
              target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
            },
          },
        ]
      : [];
  const others = listAnnotation(annotations[METRICS_ANNOTATION]);
  if (others) metrics = [...others.map(metricSpecFromOld), ...metrics];
  if (!metrics.length) metrics = [defaultCpuMetric()];
  const behavior = behaviorFromAnnotation(annotations[BEHAVIOR_ANNOTATION]);
  const { currentCPUUtilizationPercentage: cpuNow, ...statusRest } = status ?? {};
  let currentMetrics: MetricStatusV2[] | undefined =
    cpuNow != null
      ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpuNow } } }]
      : undefined;
  const current = listAnnotation(annotations[CURRENT_METRICS_ANNOTATION]);
  if (current) currentMetrics = current.map(metricStatusFromOld);
  const conditions = listAnnotation(annotations[CONDITIONS_ANNOTATION]);
  const out = {
    ...rest,
    apiVersion: 'autoscaling/v2',
    metadata: { ...metadata, annotations: dropRoundTrip(metadata.annotations) },
    spec: {
      scaleTargetRef: spec?.scaleTargetRef,
      minReplicas: spec?.minReplicas,
      maxReplicas: spec?.maxReplicas,
      metrics,
      ...(behavior ? { behavior } : {}),
    },
    ...(status || currentMetrics || conditions
      ? {
          status: {
            ...statusRest,
            ...(currentMetrics ? { currentMetrics } : {}),
            ...(conditions ? { conditions } : {}),
          },
        }
      : {}),
  } as Hpa;
  if (!out.metadata.annotations) delete out.metadata.annotations;
  defaultHpaV2(out);
  return out;
}

export const hpaV1Conversion: VersionConversion = {
  defaults: (obj: HpaV1) => {
    const spec = (obj.spec ??= {});
    spec.minReplicas ??= 1;
  },
  toStorage: fromV1,
  fromStorage: toV1,
};
