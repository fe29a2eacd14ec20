/**
 * Protobuf messages of Event (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 * EventSeries.state = 3 is the 1.10 field.
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const eventMessages: ProtoMessages = {
  v1: {
    ...listMessage('Event'),
    Event:
      'metadata=1:ObjectMeta involvedObject=2:ObjectReference reason=3 message=4 source=5:EventSource firstTimestamp=6:Time lastTimestamp=7:Time count=8:int32 type=9 eventTime=10:MicroTime series=11:EventSeries action=12 related=13:ObjectReference reportingComponent=14 reportingInstance=15',
    EventSeries: 'count=1:int32 lastObservedTime=2:MicroTime state=3',
    EventSource: 'component=1 host=2',
  },
};
