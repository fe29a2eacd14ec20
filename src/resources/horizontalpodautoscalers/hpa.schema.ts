/**
 * HorizontalPodAutoscaler fields of autoscaling/v2 as Kubernetes 1.33 has them (k8s.io/api
 * autoscaling/v2 types.go), the storage version: metrics of five source types, each with a
 * MetricTarget, scaling behavior, and the status the autoscaler writes.
 */
import { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { declared } from '../../api/core/patch-info.js';
import {
  int,
  labelSelector,
  list,
  mergedList,
  obj,
  quantity,
  reqObj,
  reqStr,
  str,
  time,
} from '../../api/core/schema-kit.js';

const q = quantity.nullable().optional();

/** CrossVersionObjectReference (scaleTargetRef, describedObject). */
export const crossVersionRef = {
  apiVersion: str.describe('API version of the referent.'),
  kind: str.describe('Kind of the referent.'),
  name: str.describe('Name of the referent.'),
};

const metricIdentifier = reqObj({
  name: str.describe('Name of the metric.'),
  selector: labelSelector.describe('Label selector narrowing the metric series; all series when unset.'),
});

const metricTarget = reqObj({
  averageUtilization: int.describe(
    'Target average of the resource metric across pods, as a percentage of the requests.',
  ),
  averageValue: q.describe('Target average value of the metric across pods.'),
  type: str.describe('Utilization, Value or AverageValue.'),
  value: q.describe('Target value of the metric.'),
});

const metricValueStatus = reqObj({
  averageUtilization: int.describe('Current average utilization, as a percentage of the requests.'),
  averageValue: q.describe('Current average value across pods.'),
  value: q.describe('Current value.'),
});

const describedObject = reqObj(crossVersionRef);

export const metricSpec = reqObj({
  containerResource: obj({
    container: str.describe('Container of the pods whose resource is measured.'),
    name: str.describe('Resource name (cpu, memory).'),
    target: metricTarget,
  }).describe('A resource metric of one container of each pod.'),
  external: obj({ metric: metricIdentifier, target: metricTarget }).describe(
    'A metric not associated with any Kubernetes object.',
  ),
  object: obj({ describedObject, metric: metricIdentifier, target: metricTarget }).describe(
    'A metric of a single Kubernetes object.',
  ),
  pods: obj({ metric: metricIdentifier, target: metricTarget }).describe('A metric of each pod, averaged.'),
  resource: obj({ name: str.describe('Resource name (cpu, memory).'), target: metricTarget }).describe(
    'A resource metric of each pod (requests and limits), as the metrics API reports it.',
  ),
  type: str.describe('ContainerResource, External, Object, Pods or Resource.'),
});

export const metricStatus = reqObj({
  containerResource: obj({ container: reqStr, current: metricValueStatus, name: reqStr }),
  external: obj({ current: metricValueStatus, metric: metricIdentifier }),
  object: obj({ current: metricValueStatus, describedObject, metric: metricIdentifier }),
  pods: obj({ current: metricValueStatus, metric: metricIdentifier }),
  resource: obj({ current: metricValueStatus, name: reqStr }),
  type: reqStr.describe('ContainerResource, External, Object, Pods or Resource.'),
});

const scalingRules = obj({
  policies: declared(
    list(
      reqObj({
        periodSeconds: int.describe('Window over which the policy holds (1 to 1800 seconds).'),
        type: str.describe('Pods or Percent.'),
        value: int.describe('Amount of change the policy permits; greater than zero.'),
      }),
    ),
    { listType: 'atomic' },
  ).describe('Policies the scaling may follow; at least one.'),
  selectPolicy: str.describe('Which policy applies: Max (default), Min or Disabled.'),
  stabilizationWindowSeconds: int.describe('Seconds of past recommendations considered (0 to 3600).'),
  tolerance: q.describe('Tolerance on the ratio of current to desired metric value (HPAConfigurableTolerance, off).'),
});

export const conditionItem = reqObj({
  lastTransitionTime: time.describe('Last time the condition changed.'),
  message: str.describe('Human-readable details of the transition.'),
  reason: str.describe('Reason of the last transition.'),
  status: reqStr.describe('True, False or Unknown.'),
  type: reqStr.describe('ScalingActive, AbleToScale or ScalingLimited.'),
});

export const hpaSchema = kindSchema({
  spec: obj({
    behavior: obj({
      scaleDown: scalingRules.describe(
        'Scaling down: at most 100% of the pods every 15 s after a 300 s window by default.',
      ),
      scaleUp: scalingRules.describe('Scaling up: the larger of 4 pods or 100% every 15 s, no window, by default.'),
    }).describe('How fast the target scales up and down.'),
    maxReplicas: int.describe('Upper limit of replicas; at least minReplicas.'),
    metrics: declared(list(metricSpec), { listType: 'atomic' }).describe(
      'Metrics whose desired replica counts are computed; the largest wins (default: 80% average CPU utilization).',
    ),
    minReplicas: int.describe('Lower limit of replicas (default 1).'),
    scaleTargetRef: obj(crossVersionRef).describe('The scaled resource (its scale subresource).'),
  }).describe('What is scaled and on which metrics.'),
  status: obj({
    conditions: mergedList(conditionItem, { key: 'type' }).describe('Conditions of the autoscaler.'),
    currentMetrics: declared(list(metricStatus), { listType: 'atomic' }).describe('Last read state of the metrics.'),
    currentReplicas: int.describe('Current number of replicas of the target.'),
    desiredReplicas: int.describe('Desired number of replicas as last computed.'),
    lastScaleTime: time.describe('Last time the number of pods was changed.'),
    observedGeneration: int.describe('Most recent generation observed by the autoscaler.'),
  }).describe('Current state of the autoscaler.'),
});

export type Hpa = KindObject<typeof hpaSchema>;
export type HpaSpec = NonNullable<Hpa['spec']>;
export type MetricSpecV2 = z.infer<typeof metricSpec>;
export type MetricStatusV2 = z.infer<typeof metricStatus>;
