/**
 * Protobuf messages of StatefulSet at each served version (notation in api/protobuf/messages.ts;
 * numbers from upstream's k8s.io/api apps/v1, v1beta2 and v1beta1 generated.proto, the same in
 * all three), the claim templates' PersistentVolumeClaim (core/v1), and the scale subresource's
 * view: autoscaling/v1 Scale for apps/v1, the group version's own Scale for the betas (apps-common's).
 */
import { listMessage, mergeMessages, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';
import { persistentVolumeClaimMessages } from '../persistentvolumeclaims/persistentvolumeclaims.protobuf.js';
import { scaleMessages } from '../apps-common/scale.js';

/** The workload messages StatefulSet and DaemonSet share in a package. */
export const WORKLOAD_CONDITION = 'type=1! status=2! lastTransitionTime=3:Time reason=4 message=5';

/** StatefulSet's messages in one package; apps/v1beta1's observedGeneration is a pointer (zero kept). */
function statefulSetSet(observedGenerationPointer: boolean): MessageSet {
  return {
    ...listMessage('StatefulSet'),
    StatefulSet: 'metadata=1:ObjectMeta spec=2:StatefulSetSpec status=3:StatefulSetStatus',
    StatefulSetSpec:
      'replicas=1:int32! selector=2:LabelSelector template=3:PodTemplateSpec volumeClaimTemplates=4:[]PersistentVolumeClaim serviceName=5! podManagementPolicy=6 updateStrategy=7:StatefulSetUpdateStrategy revisionHistoryLimit=8:int32! minReadySeconds=9:int32 persistentVolumeClaimRetentionPolicy=10:StatefulSetPersistentVolumeClaimRetentionPolicy ordinals=11:StatefulSetOrdinals',
    StatefulSetStatus: `observedGeneration=1:int64${observedGenerationPointer ? '!' : ''} replicas=2:int32! readyReplicas=3:int32 currentReplicas=4:int32 updatedReplicas=5:int32 currentRevision=6 updateRevision=7 collisionCount=9:int32! conditions=10:[]StatefulSetCondition availableReplicas=11:int32!`,
    StatefulSetCondition: WORKLOAD_CONDITION,
    StatefulSetUpdateStrategy: 'type=1 rollingUpdate=2:RollingUpdateStatefulSetStrategy',
    RollingUpdateStatefulSetStrategy: 'partition=1:int32! maxUnavailable=2:IntOrString!',
    StatefulSetPersistentVolumeClaimRetentionPolicy: 'whenDeleted=1 whenScaled=2',
    StatefulSetOrdinals: 'start=1:int32!',
  };
}

/** The claim templates' message, from the PersistentVolumeClaim kind (core/v1). */
const claims: ProtoMessages = { v1: persistentVolumeClaimMessages.v1! };

export const statefulSetMessagesV1: ProtoMessages = mergeMessages(
  claims,
  { 'apps/v1': statefulSetSet(false) },
  scaleMessages('autoscaling/v1'),
);
export const statefulSetMessagesV1beta2: ProtoMessages = mergeMessages(
  claims,
  { 'apps/v1beta2': statefulSetSet(false) },
  scaleMessages('apps/v1beta2'),
);
export const statefulSetMessagesV1beta1: ProtoMessages = mergeMessages(
  claims,
  { 'apps/v1beta1': statefulSetSet(true) },
  scaleMessages('apps/v1beta1'),
);
