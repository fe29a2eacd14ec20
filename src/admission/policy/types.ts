/**
 * The contracts of the ValidatingAdmissionPolicy plugin (upstream k8s.io/apiserver
 * pkg/admission/plugin/policy/validating/policy_decision.go): the admissionregistration.k8s.io/v1
 * kinds the plugin reads (their schemas' types) and the decisions a policy's validations reach.
 */
export type {
  ValidatingAdmissionPolicy as Policy,
  PolicySpec,
} from '../../resources/validatingadmissionpolicies/validatingadmissionpolicies.schema.js';
export type {
  ValidatingAdmissionPolicyBinding as PolicyBinding,
  BindingSpec,
  ParamRef,
} from '../../resources/validatingadmissionpolicybindings/validatingadmissionpolicybindings.schema.js';
export type {
  MatchResources,
  NamedRuleWithOperations as NamedRule,
} from '../../resources/webhook-common/match-resources.schema.js';

/** What a validation or the policy's set-up decided (upstream PolicyDecision). */
export interface PolicyDecision {
  readonly action: 'admit' | 'deny';
  /** admit: true; deny: false; error: an expression or the configuration failed. */
  readonly evaluation: 'admit' | 'deny' | 'error';
  readonly message: string;
  /** A metav1.StatusReason ('' for none). */
  readonly reason: string;
}

/** What an audit annotation's valueExpression decided (upstream PolicyAuditAnnotation). */
export interface PolicyAuditAnnotation {
  readonly key: string;
  readonly value: string;
  readonly action: 'publish' | 'error' | 'exclude';
  readonly error: string;
}

/** The outcome of one evaluation of a policy (one binding, one param): upstream ValidateResult. */
export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[];
  readonly auditAnnotations: readonly PolicyAuditAnnotation[];
}
