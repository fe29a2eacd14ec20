/**
 * Protobuf messages of Namespace (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const namespaceMessages: ProtoMessages = {
  v1: {
    ...listMessage('Namespace'),
    Namespace: 'metadata=1:ObjectMeta spec=2:NamespaceSpec status=3:NamespaceStatus',
    NamespaceSpec: 'finalizers=1:[]string',
    NamespaceStatus: 'phase=1',
  },
};
