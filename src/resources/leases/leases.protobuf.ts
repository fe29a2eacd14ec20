/** Protobuf messages of Lease (numbers from upstream's k8s.io/api coordination/v1 generated.proto). */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const leaseMessages: ProtoMessages = {
  'coordination.k8s.io/v1': {
    ...listMessage('Lease'),
    Lease: 'metadata=1:ObjectMeta spec=2:LeaseSpec',
    LeaseSpec:
      'holderIdentity=1! leaseDurationSeconds=2:int32! acquireTime=3:MicroTime renewTime=4:MicroTime leaseTransitions=5:int32! strategy=6! preferredHolder=7!',
  },
};
