/**
 * Protobuf messages of IngressClass (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api networking/v1 generated.proto: the parameters' apiGroup is proto
 * field `aPIGroup`, JSON `apiGroup`).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const ingressClassMessages: ProtoMessages = {
  'networking.k8s.io/v1': {
    ...listMessage('IngressClass'),
    IngressClass: 'metadata=1:ObjectMeta spec=2:IngressClassSpec',
    IngressClassSpec: 'controller=1 parameters=2:IngressClassParametersReference',
    IngressClassParametersReference: 'apiGroup=1! kind=2! name=3! scope=4! namespace=5!',
  },
};
