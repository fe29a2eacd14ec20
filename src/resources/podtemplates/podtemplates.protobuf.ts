/**
 * Protobuf messages of PodTemplate (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const podTemplateMessages: ProtoMessages = {
  v1: {
    ...listMessage('PodTemplate'),
    PodTemplate: 'metadata=1:ObjectMeta template=2:PodTemplateSpec',
  },
};
