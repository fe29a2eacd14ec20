/**
 * Protobuf messages of FlowSchema (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api flowcontrol/v1 generated.proto, 1.33). Fields without `omitempty` in
 * Go (matchingPrecedence, the names and kinds) keep their zero value; a non-resource rule's
 * URLs are number 6.
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';
import { FLOWCONTROL_V1 } from '../flowcontrol-common/names.js';

export const flowSchemaMessages: ProtoMessages = {
  [FLOWCONTROL_V1]: {
    ...listMessage('FlowSchema'),
    FlowSchema: 'metadata=1:ObjectMeta spec=2:FlowSchemaSpec status=3:FlowSchemaStatus',
    FlowSchemaSpec:
      'priorityLevelConfiguration=1:PriorityLevelConfigurationReference matchingPrecedence=2:int32! distinguisherMethod=3:FlowDistinguisherMethod rules=4:[]PolicyRulesWithSubjects',
    PriorityLevelConfigurationReference: 'name=1!',
    FlowDistinguisherMethod: 'type=1!',
    PolicyRulesWithSubjects:
      'subjects=1:[]Subject resourceRules=2:[]ResourcePolicyRule nonResourceRules=3:[]NonResourcePolicyRule',
    Subject: 'kind=1! user=2:UserSubject group=3:GroupSubject serviceAccount=4:ServiceAccountSubject',
    UserSubject: 'name=1!',
    GroupSubject: 'name=1!',
    ServiceAccountSubject: 'namespace=1! name=2!',
    ResourcePolicyRule:
      'verbs=1:[]string apiGroups=2:[]string resources=3:[]string clusterScope=4:bool namespaces=5:[]string',
    NonResourcePolicyRule: 'verbs=1:[]string nonResourceURLs=6:[]string',
    FlowSchemaStatus: 'conditions=1:[]FlowSchemaCondition',
    FlowSchemaCondition: 'type=1 status=2 lastTransitionTime=3:Time reason=4 message=5',
  },
};
