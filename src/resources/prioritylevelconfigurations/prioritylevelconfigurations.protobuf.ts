/**
 * Protobuf messages of PriorityLevelConfiguration (notation in api/protobuf/messages.ts;
 * numbers from upstream's k8s.io/api flowcontrol/v1 generated.proto, 1.33). The type fields
 * and the queuing numbers have no `omitempty` in Go, and the shares and percentages are
 * pointers: their zero values are kept.
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';
import { FLOWCONTROL_V1 } from '../flowcontrol-common/names.js';

export const priorityLevelConfigurationMessages: ProtoMessages = {
  [FLOWCONTROL_V1]: {
    ...listMessage('PriorityLevelConfiguration'),
    PriorityLevelConfiguration:
      'metadata=1:ObjectMeta spec=2:PriorityLevelConfigurationSpec status=3:PriorityLevelConfigurationStatus',
    PriorityLevelConfigurationSpec:
      'type=1! limited=2:LimitedPriorityLevelConfiguration exempt=3:ExemptPriorityLevelConfiguration',
    LimitedPriorityLevelConfiguration:
      'nominalConcurrencyShares=1:int32! limitResponse=2:LimitResponse lendablePercent=3:int32! borrowingLimitPercent=4:int32!',
    LimitResponse: 'type=1! queuing=2:QueuingConfiguration',
    QueuingConfiguration: 'queues=1:int32! handSize=2:int32! queueLengthLimit=3:int32!',
    ExemptPriorityLevelConfiguration: 'nominalConcurrencyShares=1:int32! lendablePercent=2:int32!',
    PriorityLevelConfigurationStatus: 'conditions=1:[]PriorityLevelConfigurationCondition',
    PriorityLevelConfigurationCondition: 'type=1 status=2 lastTransitionTime=3:Time reason=4 message=5',
  },
};
