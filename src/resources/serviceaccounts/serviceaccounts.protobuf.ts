/**
 * Protobuf messages of ServiceAccount (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const serviceAccountMessages: ProtoMessages = {
  v1: {
    ...listMessage('ServiceAccount'),
    ServiceAccount:
      'metadata=1:ObjectMeta secrets=2:[]ObjectReference imagePullSecrets=3:[]LocalObjectReference automountServiceAccountToken=4:bool!',
  },
};
