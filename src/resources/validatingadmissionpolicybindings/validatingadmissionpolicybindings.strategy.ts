/**
 * The ValidatingAdmissionPolicyBinding strategy (k8s.io/kubernetes
 * pkg/registry/admissionregistration/validatingadmissionpolicybinding/strategy.go and
 * pkg/apis/admissionregistration/v1 defaults.go, 1.33): defaults (a paramRef's
 * parameterNotFoundAction Deny; the match resources' matchPolicy Equivalent, empty selectors, a
 * rule's scope `*`), generation 1 on create and bumped when the spec changes, validation.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Strategy } from '../../registry/types.js';
import { semanticForm } from '../validatingadmissionpolicies/validatingadmissionpolicies.strategy.js';
import { defaultMatchResources } from '../webhook-common/match-resources.validation.js';
import type { ValidatingAdmissionPolicyBinding } from './validatingadmissionpolicybindings.schema.js';
import { validateBinding } from './validatingadmissionpolicybindings.validation.js';

/** SetDefaults_ParamRef and SetDefaults_MatchResources of a binding. */
export function defaultBinding(binding: ValidatingAdmissionPolicyBinding): void {
  const spec = binding.spec;
  if (!spec) return;
  if (spec.paramRef) spec.paramRef.parameterNotFoundAction ??= 'Deny';
  defaultMatchResources(spec.matchResources);
}

export const bindingStrategy: Strategy<ValidatingAdmissionPolicyBinding> = {
  defaults: defaultBinding,
  prepareForCreate(binding) {
    binding.metadata.generation = 1;
  },
  prepareForUpdate(binding, old) {
    const generation = old.metadata.generation ?? 0;
    const same = isDeepStrictEqual(semanticForm(binding.spec ?? {}), semanticForm(old.spec ?? {}));
    binding.metadata.generation = same ? generation : generation + 1;
  },
  validate: validateBinding,
  validateUpdate: validateBinding,
};
