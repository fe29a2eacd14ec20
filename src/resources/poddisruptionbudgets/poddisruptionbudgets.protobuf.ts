/**
 * Protobuf messages of PodDisruptionBudget and Eviction (notation in api/protobuf/messages.ts;
 * numbers from upstream's k8s.io/api policy/v1 generated.proto, and policy/v1beta1's of 1.10).
 * The status counts have no `omitempty`: their zero values are kept. Eviction is the body of
 * `pods/{name}/eviction` in either version.
 */
import { listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';

const COMMON: MessageSet = {
  ...listMessage('PodDisruptionBudget'),
  PodDisruptionBudget: 'metadata=1:ObjectMeta spec=2:PodDisruptionBudgetSpec status=3:PodDisruptionBudgetStatus',
  Eviction: 'metadata=1:ObjectMeta deleteOptions=2:DeleteOptions',
};

const STATUS =
  'observedGeneration=1:int64 disruptedPods=2:map<Time> disruptionsAllowed=3:int32! currentHealthy=4:int32! desiredHealthy=5:int32! expectedPods=6:int32!';

export const podDisruptionBudgetMessages: ProtoMessages = {
  'policy/v1': {
    ...COMMON,
    PodDisruptionBudgetSpec:
      'minAvailable=1:IntOrString selector=2:LabelSelector maxUnavailable=3:IntOrString unhealthyPodEvictionPolicy=4',
    PodDisruptionBudgetStatus: `${STATUS} conditions=7:[]Condition`,
    // meta/v1 Condition, kept in this package.
    Condition: 'type=1! status=2! observedGeneration=3:int64 lastTransitionTime=4:Time! reason=5! message=6!',
  },
};

export const podDisruptionBudgetV1beta1Messages: ProtoMessages = {
  'policy/v1beta1': {
    ...COMMON,
    PodDisruptionBudgetSpec: 'minAvailable=1:IntOrString selector=2:LabelSelector maxUnavailable=3:IntOrString',
    PodDisruptionBudgetStatus: STATUS,
  },
};
