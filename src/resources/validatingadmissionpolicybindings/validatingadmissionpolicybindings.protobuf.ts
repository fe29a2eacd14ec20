/**
 * Protobuf messages of ValidatingAdmissionPolicyBinding (notation in api/protobuf/messages.ts;
 * numbers from upstream's k8s.io/api admissionregistration/v1 generated.proto, 1.33).
 */
import { inVersions, listMessage, type MessageSet } from '../../api/protobuf/messages.js';
import { MATCH_RESOURCES_MESSAGES } from '../webhook-common/match-resources.protobuf.js';

const MESSAGES: MessageSet = {
  ...MATCH_RESOURCES_MESSAGES,
  ...listMessage('ValidatingAdmissionPolicyBinding'),
  ValidatingAdmissionPolicyBinding: 'metadata=1:ObjectMeta spec=2:ValidatingAdmissionPolicyBindingSpec',
  ValidatingAdmissionPolicyBindingSpec:
    'policyName=1 paramRef=2:ParamRef matchResources=3:MatchResources validationActions=4:[]string',
  ParamRef: 'name=1 namespace=2 selector=3:LabelSelector parameterNotFoundAction=4!',
};

export const bindingMessages = (...apiVersions: string[]) => inVersions(MESSAGES, ...apiVersions);
