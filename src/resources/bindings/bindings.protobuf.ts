/**
 * Protobuf messages of Binding (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import type { ProtoMessages } from '../../api/protobuf/messages.js';

export const bindingMessages: ProtoMessages = {
  v1: {
    Binding: 'metadata=1:ObjectMeta target=2:ObjectReference!',
  },
};
