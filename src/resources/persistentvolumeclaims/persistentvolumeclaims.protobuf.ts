/**
 * Protobuf messages of PersistentVolumeClaim (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const persistentVolumeClaimMessages: ProtoMessages = {
  v1: {
    ...listMessage('PersistentVolumeClaim'),
    PersistentVolumeClaim:
      'metadata=1:ObjectMeta spec=2:PersistentVolumeClaimSpec status=3:PersistentVolumeClaimStatus',
    PersistentVolumeClaimCondition:
      'type=1! status=2! lastProbeTime=3:Time lastTransitionTime=4:Time reason=5 message=6',
    PersistentVolumeClaimSpec:
      'accessModes=1:[]string resources=2:VolumeResourceRequirements volumeName=3 selector=4:LabelSelector storageClassName=5! volumeMode=6!',
    PersistentVolumeClaimStatus:
      'phase=1 accessModes=2:[]string capacity=3:map<Quantity> conditions=4:[]PersistentVolumeClaimCondition',
    VolumeResourceRequirements: 'limits=1:map<Quantity> requests=2:map<Quantity>',
  },
};
