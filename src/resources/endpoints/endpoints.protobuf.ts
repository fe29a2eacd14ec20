/**
 * Protobuf messages of Endpoints (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const endpointsMessages: ProtoMessages = {
  v1: {
    ...listMessage('Endpoints'),
    EndpointAddress: 'ip=1! targetRef=2:ObjectReference hostname=3 nodeName=4!',
    EndpointPort: 'name=1 port=2:int32! protocol=3 appProtocol=4!',
    EndpointSubset: 'addresses=1:[]EndpointAddress notReadyAddresses=2:[]EndpointAddress ports=3:[]EndpointPort',
    Endpoints: 'metadata=1:ObjectMeta subsets=2:[]EndpointSubset',
  },
};
