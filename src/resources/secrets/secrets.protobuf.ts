/**
 * Protobuf messages of Secret (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const secretMessages: ProtoMessages = {
  v1: {
    ...listMessage('Secret'),
    Secret: 'metadata=1:ObjectMeta data=2:map<bytes> type=3 stringData=4:map<string> immutable=5:bool!',
  },
};
