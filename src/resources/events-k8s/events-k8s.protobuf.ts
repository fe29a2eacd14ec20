/**
 * Protobuf messages of events.k8s.io Event (numbers from upstream's k8s.io/api events/v1 and
 * v1beta1 generated.proto, which agree), under each API version served.
 */
import { inVersions, listMessage } from '../../api/protobuf/messages.js';

export const eventsK8sMessages = (...apiVersions: string[]) =>
  inVersions(
    {
      ...listMessage('Event'),
      Event:
        'metadata=1:ObjectMeta eventTime=2:MicroTime series=3:EventSeries reportingController=4 reportingInstance=5 action=6 reason=7 regarding=8:ObjectReference related=9:ObjectReference note=10 type=11 deprecatedSource=12:EventSource deprecatedFirstTimestamp=13:Time deprecatedLastTimestamp=14:Time deprecatedCount=15:int32',
      EventSeries: 'count=1:int32! lastObservedTime=2:MicroTime',
    },
    ...apiVersions,
  );
