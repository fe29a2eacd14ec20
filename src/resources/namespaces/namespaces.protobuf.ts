/**
 * Protobuf messages of Namespace (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const namespaceMessages: ProtoMessages = {
  v1: {
    ...listMessage('Namespace'),
    Namespace: 'metadata=1:ObjectMeta spec=2:NamespaceSpec status=3:NamespaceStatus',
    NamespaceCondition: 'type=1! status=2! lastTransitionTime=4:Time reason=5 message=6',
    NamespaceSpec: 'finalizers=1:[]string',
    NamespaceStatus: 'phase=1 conditions=2:[]NamespaceCondition',
  },
};
