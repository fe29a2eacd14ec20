/** Protobuf messages of CSINode (numbers from upstream's k8s.io/api storage/v1 generated.proto, 1.33). */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const csiNodeMessages: ProtoMessages = {
  'storage.k8s.io/v1': {
    ...listMessage('CSINode'),
    CSINode: 'metadata=1:ObjectMeta spec=2:CSINodeSpec',
    CSINodeSpec: 'drivers=1:[]CSINodeDriver',
    CSINodeDriver: 'name=1! nodeID=2! topologyKeys=3:[]string allocatable=4:VolumeNodeResources',
    VolumeNodeResources: 'count=1:int32!',
  },
};
