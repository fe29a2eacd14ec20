/** Protobuf messages of CSIDriver (numbers from upstream's k8s.io/api storage/v1 generated.proto, 1.33). */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const csiDriverMessages: ProtoMessages = {
  'storage.k8s.io/v1': {
    ...listMessage('CSIDriver'),
    CSIDriver: 'metadata=1:ObjectMeta spec=2:CSIDriverSpec',
    CSIDriverSpec:
      'attachRequired=1:bool! podInfoOnMount=2:bool! volumeLifecycleModes=3:[]string storageCapacity=4:bool! fsGroupPolicy=5! tokenRequests=6:[]TokenRequest requiresRepublish=7:bool! seLinuxMount=8:bool! nodeAllocatableUpdatePeriodSeconds=9:int64!',
    TokenRequest: 'audience=1! expirationSeconds=2:int64!',
  },
};
