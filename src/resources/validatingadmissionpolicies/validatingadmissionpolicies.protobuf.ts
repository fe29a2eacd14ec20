/**
 * Protobuf messages of ValidatingAdmissionPolicy (notation in api/protobuf/messages.ts; numbers
 * from upstream's k8s.io/api admissionregistration/v1 generated.proto, 1.33). Fields Go writes
 * without `omitempty` (an expression, a variable's name, an audit annotation's key, a warning)
 * and pointer fields keep their zero value; the status conditions are meta/v1 Conditions.
 */
import { inVersions, listMessage, type MessageSet } from '../../api/protobuf/messages.js';
import { MATCH_RESOURCES_MESSAGES } from '../webhook-common/match-resources.protobuf.js';

const MESSAGES: MessageSet = {
  ...MATCH_RESOURCES_MESSAGES,
  ...listMessage('ValidatingAdmissionPolicy'),
  ValidatingAdmissionPolicy:
    'metadata=1:ObjectMeta spec=2:ValidatingAdmissionPolicySpec status=3:ValidatingAdmissionPolicyStatus',
  ValidatingAdmissionPolicySpec:
    'paramKind=1:ParamKind matchConstraints=2:MatchResources validations=3:[]Validation failurePolicy=4! auditAnnotations=5:[]AuditAnnotation matchConditions=6:[]MatchCondition variables=7:[]Variable',
  ParamKind: 'apiVersion=1 kind=2',
  Validation: 'expression=1! message=2 reason=3! messageExpression=4',
  AuditAnnotation: 'key=1! valueExpression=2!',
  Variable: 'name=1! expression=2!',
  ValidatingAdmissionPolicyStatus: 'observedGeneration=1:int64 typeChecking=2:TypeChecking conditions=3:[]Condition',
  TypeChecking: 'expressionWarnings=1:[]ExpressionWarning',
  ExpressionWarning: 'fieldRef=2! warning=3!',
  // meta/v1 Condition, kept in this package.
  Condition: 'type=1! status=2! observedGeneration=3:int64 lastTransitionTime=4:Time! reason=5! message=6!',
};

export const policyMessages = (...apiVersions: string[]) => inVersions(MESSAGES, ...apiVersions);
