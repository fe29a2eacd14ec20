/**
 * Protobuf messages of ReplicaSet at each served version (notation in api/protobuf/messages.ts;
 * numbers from k8s.io/api apps/v1, apps/v1beta2 and extensions/v1beta1 generated.proto, alike
 * in the three), with each version's Scale. `status.replicas` has no omitempty: its zero is kept.
 */
import { listMessage, mergeMessages, type ProtoMessages } from '../../api/protobuf/messages.js';
import { scaleMessages, type ScaleVersion } from '../apps-common/scale.js';

/** The versions a ReplicaSet is served at. */
export type ReplicaSetVersion = 'apps/v1' | 'apps/v1beta2' | 'extensions/v1beta1';

/** The Scale each version's `scale` subresource answers. */
export const SCALE_VERSION: Record<ReplicaSetVersion, ScaleVersion> = {
  'apps/v1': 'autoscaling/v1',
  'apps/v1beta2': 'apps/v1beta2',
  'extensions/v1beta1': 'extensions/v1beta1',
};

/** The messages of a ReplicaSet served at `version`. */
export function replicaSetMessages(version: ReplicaSetVersion): ProtoMessages {
  return mergeMessages(
    {
      [version]: {
        ...listMessage('ReplicaSet'),
        ReplicaSet: 'metadata=1:ObjectMeta spec=2:ReplicaSetSpec status=3:ReplicaSetStatus',
        ReplicaSetCondition: 'type=1! status=2! lastTransitionTime=3:Time reason=4 message=5',
        ReplicaSetSpec: 'replicas=1:int32! minReadySeconds=4:int32 selector=2:LabelSelector template=3:PodTemplateSpec',
        ReplicaSetStatus:
          'replicas=1:int32! fullyLabeledReplicas=2:int32 readyReplicas=4:int32 availableReplicas=5:int32 terminatingReplicas=7:int32! observedGeneration=3:int64 conditions=6:[]ReplicaSetCondition',
      },
    },
    scaleMessages(SCALE_VERSION[version]),
  );
}
