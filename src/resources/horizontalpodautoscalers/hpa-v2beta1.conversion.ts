/**
 * autoscaling/v2beta1 HorizontalPodAutoscalers (Kubernetes 1.10's schema) over autoscaling/v2
 * storage, as upstream's pkg/apis/autoscaling/v2beta1/conversion.go converts them: each metric
 * and metric status in v2beta1's shape, the behavior in the
 * `autoscaling.alpha.kubernetes.io/behavior` annotation. What 1.10's v2beta1 cannot hold is
 * left out of a read and so lost by a write at v2beta1: container-resource metrics, the
 * selectors of object and pods metrics, an object metric's averageValue. Defaults of 1.10's
 * v2beta1: minReplicas 1 and, with no metric, a CPU target of 80%; the stored object is read
 * with autoscaling/v2's defaults, as upstream decodes storage with them.
 */
import type { VersionConversion } from '../../registry/types.js';
import {
  metricSpecFromOld,
  metricSpecToOld,
  metricStatusFromOld,
  metricStatusToOld,
} from './hpa-metrics.conversion.js';
import type { Hpa } from './hpa.schema.js';
import { defaultHpaV2, DEFAULT_CPU_UTILIZATION } from './hpa.strategy.js';
import { BEHAVIOR_ANNOTATION, behaviorAnnotation, behaviorFromAnnotation, dropRoundTrip } from './hpa-v1.conversion.js';
import type { HpaV2beta1 } from './hpa-versions.schema.js';

type Json = Record<string, unknown>;
const defined = <T>(list: (T | undefined)[]): T[] => list.filter((x): x is T => x !== undefined);

function toV2beta1(stored: Hpa): HpaV2beta1 {
  const { spec, status, metadata, ...rest } = structuredClone(stored);
  const annotations: Record<string, string> = dropRoundTrip(metadata.annotations) ?? {};
  if (spec?.behavior) annotations[BEHAVIOR_ANNOTATION] = behaviorAnnotation(spec.behavior);
  const meta: typeof metadata = { ...metadata, annotations };
  if (!Object.keys(annotations).length) delete meta.annotations;
  const { behavior: _b, metrics, ...specRest } = spec ?? {};
  const { currentMetrics, ...statusRest } = status ?? {};
  return {
    ...rest,
    apiVersion: 'autoscaling/v2beta1',
    metadata: meta,
    ...(spec
      ? {
          spec: {
            ...specRest,
            ...(metrics ? { metrics: defined(metrics.map((m) => metricSpecToOld(m, false))) } : {}),
          },
        }
      : {}),
    ...(status
      ? {
          status: {
            ...statusRest,
            ...(currentMetrics
              ? { currentMetrics: defined(currentMetrics.map((m) => metricStatusToOld(m, false))) }
              : {}),
          },
        }
      : {}),
  };
}

function fromV2beta1(obj: HpaV2beta1): Hpa {
  const { spec, status, metadata, ...rest } = structuredClone(obj);
  const behavior = behaviorFromAnnotation(metadata.annotations?.[BEHAVIOR_ANNOTATION]);
  const meta: typeof metadata = { ...metadata, annotations: dropRoundTrip(metadata.annotations) };
  if (!meta.annotations) delete meta.annotations;
  const { metrics, ...specRest } = spec ?? {};
  const { currentMetrics, ...statusRest } = status ?? {};
  const out = {
    ...rest,
    apiVersion: 'autoscaling/v2',
    metadata: meta,
    spec: {
      ...specRest,
      ...(metrics ? { metrics: metrics.map((m) => metricSpecFromOld(m as Json)) } : {}),
      ...(behavior ? { behavior } : {}),
    },
    ...(status
      ? {
          status: {
            ...statusRest,
            ...(currentMetrics ? { currentMetrics: currentMetrics.map((m) => metricStatusFromOld(m as Json)) } : {}),
          },
        }
      : {}),
  };
  defaultHpaV2(out);
  return out;
}

export const hpaV2beta1Conversion: VersionConversion = {
  defaults: (obj: HpaV2beta1) => {
    const spec = (obj.spec ??= {});
    spec.minReplicas ??= 1;
    if (!spec.metrics?.length)
      spec.metrics = [
        { type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: DEFAULT_CPU_UTILIZATION } },
      ];
  },
  toStorage: fromV2beta1,
  fromStorage: toV2beta1,
};
