/** Protobuf messages of RuntimeClass (numbers from upstream's k8s.io/api node/v1 generated.proto). */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const runtimeClassMessages: ProtoMessages = {
  'node.k8s.io/v1': {
    ...listMessage('RuntimeClass'),
    Overhead: 'podFixed=1:map<Quantity>',
    RuntimeClass: 'metadata=1:ObjectMeta handler=2! overhead=3:Overhead scheduling=4:Scheduling',
    Scheduling: 'nodeSelector=1:map<string> tolerations=2:[]Toleration',
  },
};
