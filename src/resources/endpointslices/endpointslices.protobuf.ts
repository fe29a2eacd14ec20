/** Protobuf messages of EndpointSlice (numbers from upstream's k8s.io/api discovery/v1 generated.proto, 1.33). */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const endpointSliceMessages: ProtoMessages = {
  'discovery.k8s.io/v1': {
    ...listMessage('EndpointSlice'),
    EndpointSlice: 'metadata=1:ObjectMeta endpoints=2:[]Endpoint ports=3:[]EndpointPort addressType=4!',
    Endpoint:
      'addresses=1:[]string conditions=2:EndpointConditions hostname=3! targetRef=4:ObjectReference deprecatedTopology=5:map<string> nodeName=6! zone=7! hints=8:EndpointHints',
    EndpointConditions: 'ready=1:bool! serving=2:bool! terminating=3:bool!',
    EndpointHints: 'forZones=1:[]ForZone forNodes=2:[]ForNode',
    ForZone: 'name=1!',
    ForNode: 'name=1!',
    EndpointPort: 'name=1! protocol=2! port=3:int32! appProtocol=4!',
  },
};
