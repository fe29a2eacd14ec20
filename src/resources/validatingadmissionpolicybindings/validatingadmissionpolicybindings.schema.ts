/**
 * ValidatingAdmissionPolicyBinding fields (k8s.io/api admissionregistration/v1 types.go, 1.33):
 * the policy it binds, the parameters (paramRef, `+structType=atomic`), the resources it narrows
 * the policy to, and how failures are enforced (validationActions, a set).
 */
import type { z } from 'zod';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, obj, replacedSetList, reqStr, str } from '../../api/core/schema-kit.js';
import type { KindObject } from '../../registry/types.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';
import { matchResourcesSchema } from '../webhook-common/match-resources.schema.js';

const paramRef = atomic(
  obj({
    name: str.describe(
      'The name of the parameter object. Exactly one of name and selector is set; name alone (with namespace for a namespaced paramKind) picks one parameter for every request.',
    ),
    namespace: str.describe(
      'The namespace of the parameter objects, for name and selector alike. Must be unset for a cluster-scoped paramKind. Unset for a namespaced paramKind: the namespace of the object being admitted (so the binding must not match cluster-scoped resources).',
    ),
    selector: labelSelectorSchema.describe(
      'Selects parameter objects by their labels ({} selects every object of the paramKind); each is evaluated and the results ANDed. Exactly one of name and selector is set.',
    ),
    parameterNotFoundAction: str.describe(
      "What the binding does when name or selector is valid but no parameter matches: Allow (the request passes) or Deny (the policy's failurePolicy applies; the default).",
    ),
  }),
);

/** ValidatingAdmissionPolicyBindingSpec. */
const spec = obj({
  policyName: str.describe(
    'The name of the ValidatingAdmissionPolicy this binding binds; a binding to a policy that does not exist is ignored. Required.',
  ),
  paramRef: paramRef.describe(
    "The parameter resources of the policy's paramKind. When the policy has a paramKind and the referenced object does not exist, the binding is misconfigured and the policy's failurePolicy applies; without a paramKind this field is ignored.",
  ),
  matchResources: matchResourcesSchema.describe(
    "The resources this binding validates, intersected with the policy's matchConstraints; unset: everything the policy matches. Unlike the policy's, resourceRules may be empty here (no constraint).",
  ),
  validationActions: replacedSetList(reqStr).describe(
    'How failed validations (and, with failurePolicy Fail, failures) are enforced, a set without repeats: Deny (the request is refused), Warn (an HTTP Warning header, code 299) and Audit (the validation.policy.admission.k8s.io/validation_failure audit annotation, a JSON list of {message, policy, binding, expressionIndex, validationActions}). Deny and Warn may not be combined. Clients ignore values they do not know. Required.',
  ),
});

export const validatingAdmissionPolicyBindingSchema = kindSchema({
  spec: spec.describe('The desired behaviour of the ValidatingAdmissionPolicyBinding.'),
});

export type ValidatingAdmissionPolicyBinding = KindObject<typeof validatingAdmissionPolicyBindingSchema>;
export type BindingSpec = NonNullable<ValidatingAdmissionPolicyBinding['spec']>;
export type ParamRef = NonNullable<z.infer<typeof paramRef>>;
