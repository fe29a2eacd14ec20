/**
 * Protobuf messages of PersistentVolumeClaim (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const persistentVolumeClaimMessages: ProtoMessages = {
  v1: {
    ...listMessage('PersistentVolumeClaim'),
    ModifyVolumeStatus: 'targetVolumeAttributesClassName=1 status=2!',
    PersistentVolumeClaim:
      'metadata=1:ObjectMeta spec=2:PersistentVolumeClaimSpec status=3:PersistentVolumeClaimStatus',
    PersistentVolumeClaimCondition:
      'type=1! status=2! lastProbeTime=3:Time lastTransitionTime=4:Time reason=5 message=6',
    PersistentVolumeClaimStatus:
      'phase=1 accessModes=2:[]string capacity=3:map<Quantity> conditions=4:[]PersistentVolumeClaimCondition allocatedResources=5:map<Quantity> allocatedResourceStatuses=7:map<string> currentVolumeAttributesClassName=8! modifyVolumeStatus=9:ModifyVolumeStatus',
  },
};
