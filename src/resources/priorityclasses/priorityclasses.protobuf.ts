/** Protobuf messages of PriorityClass (numbers from upstream's k8s.io/api scheduling/v1 generated.proto). */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const priorityClassMessages: ProtoMessages = {
  'scheduling.k8s.io/v1': {
    ...listMessage('PriorityClass'),
    PriorityClass: 'metadata=1:ObjectMeta value=2:int32! globalDefault=3:bool description=4 preemptionPolicy=5!',
  },
};
