/**
 * Protobuf messages of HorizontalPodAutoscaler (notation in api/protobuf/messages.ts; field
 * numbers from k8s.io/api generated.proto: autoscaling/v2 and autoscaling/v1 of Kubernetes
 * 1.33, autoscaling/v2beta1 of 1.10). The autoscaling/v1 package also holds Scale, which the
 * scale subresources of other kinds answer: the same messages as theirs.
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

const CONDITION = 'type=1! status=2! lastTransitionTime=3:Time reason=4 message=5';
const REF = 'kind=1! name=2! apiVersion=3';

export const HPA_V2_MESSAGES: ProtoMessages = {
  'autoscaling/v2': {
    ...listMessage('HorizontalPodAutoscaler'),
    HorizontalPodAutoscaler:
      'metadata=1:ObjectMeta spec=2:HorizontalPodAutoscalerSpec status=3:HorizontalPodAutoscalerStatus',
    HorizontalPodAutoscalerSpec:
      'scaleTargetRef=1:CrossVersionObjectReference minReplicas=2:int32! maxReplicas=3:int32! metrics=4:[]MetricSpec behavior=5:HorizontalPodAutoscalerBehavior',
    HorizontalPodAutoscalerStatus:
      'observedGeneration=1:int64! lastScaleTime=2:Time currentReplicas=3:int32 desiredReplicas=4:int32! currentMetrics=5:[]MetricStatus conditions=6:[]HorizontalPodAutoscalerCondition',
    HorizontalPodAutoscalerBehavior: 'scaleUp=1:HPAScalingRules scaleDown=2:HPAScalingRules',
    HPAScalingRules:
      'stabilizationWindowSeconds=3:int32! selectPolicy=1! policies=2:[]HPAScalingPolicy tolerance=4:Quantity',
    HPAScalingPolicy: 'type=1! value=2:int32! periodSeconds=3:int32!',
    HorizontalPodAutoscalerCondition: CONDITION,
    CrossVersionObjectReference: REF,
    MetricSpec:
      'type=1! object=2:ObjectMetricSource pods=3:PodsMetricSource resource=4:ResourceMetricSource containerResource=7:ContainerResourceMetricSource external=5:ExternalMetricSource',
    MetricStatus:
      'type=1! object=2:ObjectMetricStatus pods=3:PodsMetricStatus resource=4:ResourceMetricStatus containerResource=7:ContainerResourceMetricStatus external=5:ExternalMetricStatus',
    MetricIdentifier: 'name=1! selector=2:LabelSelector',
    MetricTarget: 'type=1! value=2:Quantity averageValue=3:Quantity averageUtilization=4:int32!',
    MetricValueStatus: 'value=1:Quantity averageValue=2:Quantity averageUtilization=3:int32!',
    ObjectMetricSource: 'describedObject=1:CrossVersionObjectReference target=2:MetricTarget metric=3:MetricIdentifier',
    ObjectMetricStatus:
      'metric=1:MetricIdentifier current=2:MetricValueStatus describedObject=3:CrossVersionObjectReference',
    PodsMetricSource: 'metric=1:MetricIdentifier target=2:MetricTarget',
    PodsMetricStatus: 'metric=1:MetricIdentifier current=2:MetricValueStatus',
    ResourceMetricSource: 'name=1! target=2:MetricTarget',
    ResourceMetricStatus: 'name=1! current=2:MetricValueStatus',
    ContainerResourceMetricSource: 'name=1! target=2:MetricTarget container=3!',
    ContainerResourceMetricStatus: 'name=1! current=2:MetricValueStatus container=3!',
    ExternalMetricSource: 'metric=1:MetricIdentifier target=2:MetricTarget',
    ExternalMetricStatus: 'metric=1:MetricIdentifier current=2:MetricValueStatus',
  },
};

export const HPA_V1_MESSAGES: ProtoMessages = {
  'autoscaling/v1': {
    ...listMessage('HorizontalPodAutoscaler'),
    HorizontalPodAutoscaler:
      'metadata=1:ObjectMeta spec=2:HorizontalPodAutoscalerSpec status=3:HorizontalPodAutoscalerStatus',
    HorizontalPodAutoscalerSpec:
      'scaleTargetRef=1:CrossVersionObjectReference minReplicas=2:int32! maxReplicas=3:int32! targetCPUUtilizationPercentage=4:int32!',
    HorizontalPodAutoscalerStatus:
      'observedGeneration=1:int64! lastScaleTime=2:Time currentReplicas=3:int32! desiredReplicas=4:int32! currentCPUUtilizationPercentage=5:int32!',
    CrossVersionObjectReference: REF,
    Scale: 'metadata=1:ObjectMeta spec=2:ScaleSpec status=3:ScaleStatus',
    ScaleSpec: 'replicas=1:int32!',
    ScaleStatus: 'replicas=1:int32! selector=2',
  },
};

export const HPA_V2BETA1_MESSAGES: ProtoMessages = {
  'autoscaling/v2beta1': {
    ...listMessage('HorizontalPodAutoscaler'),
    HorizontalPodAutoscaler:
      'metadata=1:ObjectMeta spec=2:HorizontalPodAutoscalerSpec status=3:HorizontalPodAutoscalerStatus',
    HorizontalPodAutoscalerSpec:
      'scaleTargetRef=1:CrossVersionObjectReference minReplicas=2:int32! maxReplicas=3:int32! metrics=4:[]MetricSpec',
    HorizontalPodAutoscalerStatus:
      'observedGeneration=1:int64! lastScaleTime=2:Time currentReplicas=3:int32! desiredReplicas=4:int32! currentMetrics=5:[]MetricStatus conditions=6:[]HorizontalPodAutoscalerCondition',
    HorizontalPodAutoscalerCondition: CONDITION,
    CrossVersionObjectReference: REF,
    MetricSpec:
      'type=1! object=2:ObjectMetricSource pods=3:PodsMetricSource resource=4:ResourceMetricSource external=5:ExternalMetricSource',
    MetricStatus:
      'type=1! object=2:ObjectMetricStatus pods=3:PodsMetricStatus resource=4:ResourceMetricStatus external=5:ExternalMetricStatus',
    ObjectMetricSource: 'target=1:CrossVersionObjectReference metricName=2! targetValue=3:Quantity',
    ObjectMetricStatus: 'target=1:CrossVersionObjectReference metricName=2! currentValue=3:Quantity',
    PodsMetricSource: 'metricName=1! targetAverageValue=2:Quantity',
    PodsMetricStatus: 'metricName=1! currentAverageValue=2:Quantity',
    ResourceMetricSource: 'name=1! targetAverageUtilization=2:int32! targetAverageValue=3:Quantity',
    ResourceMetricStatus: 'name=1! currentAverageUtilization=2:int32! currentAverageValue=3:Quantity',
    ExternalMetricSource:
      'metricName=1! metricSelector=2:LabelSelector targetValue=3:Quantity targetAverageValue=4:Quantity',
    ExternalMetricStatus:
      'metricName=1! metricSelector=2:LabelSelector currentValue=3:Quantity currentAverageValue=4:Quantity',
  },
};
