/**
 * Protobuf messages of LimitRange (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const limitRangeMessages: ProtoMessages = {
  v1: {
    ...listMessage('LimitRange'),
    LimitRange: 'metadata=1:ObjectMeta spec=2:LimitRangeSpec',
    LimitRangeItem:
      'type=1! max=2:map<Quantity> min=3:map<Quantity> default=4:map<Quantity> defaultRequest=5:map<Quantity> maxLimitRequestRatio=6:map<Quantity>',
    LimitRangeSpec: 'limits=1:[]LimitRangeItem',
  },
};
