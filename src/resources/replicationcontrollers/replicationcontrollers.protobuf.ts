/**
 * Protobuf messages of ReplicationController (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto), and of its scale subresource's view (k8s.io/api autoscaling/v1).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const replicationControllerMessages: ProtoMessages = {
  v1: {
    ...listMessage('ReplicationController'),
    ReplicationController:
      'metadata=1:ObjectMeta spec=2:ReplicationControllerSpec status=3:ReplicationControllerStatus',
    ReplicationControllerCondition: 'type=1! status=2! lastTransitionTime=3:Time reason=4 message=5',
    ReplicationControllerSpec:
      'replicas=1:int32! selector=2:map<string> template=3:PodTemplateSpec minReadySeconds=4:int32',
    ReplicationControllerStatus:
      'replicas=1:int32! fullyLabeledReplicas=2:int32 observedGeneration=3:int64 readyReplicas=4:int32 availableReplicas=5:int32 conditions=6:[]ReplicationControllerCondition',
  },
  // The scale subresource's view.
  'autoscaling/v1': {
    Scale: 'metadata=1:ObjectMeta spec=2:ScaleSpec status=3:ScaleStatus',
    ScaleSpec: 'replicas=1:int32!',
    ScaleStatus: 'replicas=1:int32! selector=2',
  },
};
