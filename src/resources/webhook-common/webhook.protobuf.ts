/**
 * Protobuf messages of the webhook configurations (numbers from upstream's k8s.io/api
 * admissionregistration/v1 and v1beta1 generated.proto, the same at both versions; a rule's Rule is inlined in JSON; the
 * configuration's webhooks field is named `Webhooks` there, number 2).
 */
import { inVersions, listMessage, type MessageSet } from '../../api/protobuf/messages.js';

const COMMON: MessageSet = {
  WebhookClientConfig: 'url=3 service=1:ServiceReference caBundle=2:bytes',
  ServiceReference: 'namespace=1! name=2! path=3 port=4:int32!',
  RuleWithOperations: 'operations=1:[]string rule=2:Rule~',
  Rule: 'apiGroups=1:[]string apiVersions=2:[]string resources=3:[]string scope=4',
  MatchCondition: 'name=1! expression=2!',
};
const HOOK =
  'name=1! clientConfig=2:WebhookClientConfig! rules=3:[]RuleWithOperations failurePolicy=4 matchPolicy=9 namespaceSelector=5:LabelSelector sideEffects=6 timeoutSeconds=7:int32! admissionReviewVersions=8:[]string';

const VALIDATING: MessageSet = {
  ...COMMON,
  ...listMessage('ValidatingWebhookConfiguration'),
  ValidatingWebhookConfiguration: 'metadata=1:ObjectMeta webhooks=2:[]ValidatingWebhook',
  ValidatingWebhook: `${HOOK} objectSelector=10:LabelSelector matchConditions=11:[]MatchCondition`,
};
const MUTATING: MessageSet = {
  ...COMMON,
  ...listMessage('MutatingWebhookConfiguration'),
  MutatingWebhookConfiguration: 'metadata=1:ObjectMeta webhooks=2:[]MutatingWebhook',
  MutatingWebhook: `${HOOK} objectSelector=11:LabelSelector reinvocationPolicy=10 matchConditions=12:[]MatchCondition`,
};

export const validatingWebhookMessages = (...apiVersions: string[]) => inVersions(VALIDATING, ...apiVersions);
export const mutatingWebhookMessages = (...apiVersions: string[]) => inVersions(MUTATING, ...apiVersions);
