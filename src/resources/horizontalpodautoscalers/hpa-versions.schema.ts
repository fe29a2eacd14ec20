/**
 * HorizontalPodAutoscaler at its older versions: autoscaling/v1 as Kubernetes 1.33 has it
 * (one CPU target; other metrics travel in annotations) and autoscaling/v2beta1 as 1.10 had it
 * (metrics with targetAverageUtilization, targetAverageValue, targetValue; no behavior, no
 * container-resource metrics).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, labelSelector, list, obj, quantity, reqObj, str, time } from '../../api/core/schema-kit.js';
import { conditionItem, crossVersionRef } from './hpa.schema.js';

const q = quantity.nullable().optional();
const ref = reqObj(crossVersionRef);

const statusCommon = {
  currentReplicas: int.describe('Current number of replicas of the target.'),
  desiredReplicas: int.describe('Desired number of replicas as last computed.'),
  lastScaleTime: time.describe('Last time the number of pods was changed.'),
  observedGeneration: int.describe('Most recent generation observed by the autoscaler.'),
};

const specCommon = {
  maxReplicas: int.describe('Upper limit of replicas; at least minReplicas.'),
  minReplicas: int.describe('Lower limit of replicas (default 1).'),
  scaleTargetRef: obj(crossVersionRef).describe('The scaled resource (its scale subresource).'),
};

export const hpaV1Schema = kindSchema({
  spec: obj({
    ...specCommon,
    targetCPUUtilizationPercentage: int.describe(
      'Target average CPU utilization over all pods, as a percentage of the requested CPU (default: 80% when no other metric is set).',
    ),
  }).describe('What is scaled and on which CPU target.'),
  status: obj({
    ...statusCommon,
    currentCPUUtilizationPercentage: int.describe('Current average CPU utilization over all pods, in percent.'),
  }).describe('Current state of the autoscaler.'),
});

const v2beta1MetricSpec = reqObj({
  external: obj({
    metricName: str.describe('Name of the metric.'),
    metricSelector: labelSelector.describe('Label selector narrowing the metric series.'),
    targetAverageValue: q.describe('Target average value per pod.'),
    targetValue: q.describe('Target value of the metric.'),
  }).describe('A metric not associated with any Kubernetes object.'),
  object: obj({
    metricName: str.describe('Name of the metric.'),
    target: ref.describe('The described object.'),
    targetValue: q.describe('Target value of the metric.'),
  }).describe('A metric of a single Kubernetes object.'),
  pods: obj({
    metricName: str.describe('Name of the metric.'),
    targetAverageValue: q.describe('Target average value across pods.'),
  }).describe('A metric of each pod, averaged.'),
  resource: obj({
    name: str.describe('Resource name (cpu, memory).'),
    targetAverageUtilization: int.describe('Target average utilization, as a percentage of the requests.'),
    targetAverageValue: q.describe('Target average value across pods.'),
  }).describe('A resource metric of each pod.'),
  type: str.describe('Object, Pods, Resource or External.'),
});

const v2beta1MetricStatus = reqObj({
  external: obj({
    currentAverageValue: q,
    currentValue: q,
    metricName: str,
    metricSelector: labelSelector,
  }),
  object: obj({ currentValue: q, metricName: str, target: ref }),
  pods: obj({ currentAverageValue: q, metricName: str }),
  resource: obj({ currentAverageUtilization: int, currentAverageValue: q, name: str }),
  type: str,
});

export const hpaV2beta1Schema = kindSchema({
  spec: obj({
    ...specCommon,
    metrics: list(v2beta1MetricSpec).describe('Metrics whose desired replica counts are computed; the largest wins.'),
  }).describe('What is scaled and on which metrics.'),
  status: obj({
    ...statusCommon,
    conditions: list(conditionItem).describe('Conditions of the autoscaler.'),
    currentMetrics: list(v2beta1MetricStatus).describe('Last read state of the metrics.'),
  }).describe('Current state of the autoscaler.'),
});

export type HpaV1 = KindObject<typeof hpaV1Schema>;
export type HpaV2beta1 = KindObject<typeof hpaV2beta1Schema>;
