/**
 * Protobuf messages of DaemonSet at each served version (notation in api/protobuf/messages.ts;
 * numbers from upstream's k8s.io/api apps/v1, apps/v1beta2 and extensions/v1beta1
 * generated.proto: the same, with extensions' spec.templateGeneration at 5).
 */
import { listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';
import { WORKLOAD_CONDITION } from '../statefulsets/statefulsets.protobuf.js';

function daemonSetSet(templateGeneration: boolean): MessageSet {
  return {
    ...listMessage('DaemonSet'),
    DaemonSet: 'metadata=1:ObjectMeta spec=2:DaemonSetSpec status=3:DaemonSetStatus',
    DaemonSetSpec: `selector=1:LabelSelector template=2:PodTemplateSpec updateStrategy=3:DaemonSetUpdateStrategy minReadySeconds=4:int32${templateGeneration ? ' templateGeneration=5:int64' : ''} revisionHistoryLimit=6:int32!`,
    DaemonSetStatus:
      'currentNumberScheduled=1:int32! numberMisscheduled=2:int32! desiredNumberScheduled=3:int32! numberReady=4:int32! observedGeneration=5:int64 updatedNumberScheduled=6:int32 numberAvailable=7:int32 numberUnavailable=8:int32 collisionCount=9:int32! conditions=10:[]DaemonSetCondition',
    DaemonSetCondition: WORKLOAD_CONDITION,
    DaemonSetUpdateStrategy: 'type=1 rollingUpdate=2:RollingUpdateDaemonSet',
    RollingUpdateDaemonSet: 'maxUnavailable=1:IntOrString! maxSurge=2:IntOrString!',
  };
}

export const daemonSetMessagesV1: ProtoMessages = { 'apps/v1': daemonSetSet(false) };
export const daemonSetMessagesV1beta2: ProtoMessages = { 'apps/v1beta2': daemonSetSet(false) };
export const daemonSetMessagesExtensions: ProtoMessages = { 'extensions/v1beta1': daemonSetSet(true) };
