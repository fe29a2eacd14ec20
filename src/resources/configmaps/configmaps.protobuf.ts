/**
 * Protobuf messages of ConfigMap (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const configMapMessages: ProtoMessages = {
  v1: {
    ...listMessage('ConfigMap'),
    ConfigMap: 'metadata=1:ObjectMeta data=2:map<string> binaryData=3:map<bytes> immutable=4:bool!',
  },
};
