/**
 * Installs the paramKind and paramRef authorization checks of the admission policy kinds
 * (validatingadmissionpolicies.authz.ts, validatingadmissionpolicybindings.authz.ts) on their
 * stores (admission/install.ts, with its `authorizer` getter: the checks ask the authorizer once
 * it is built): one call.
 */
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { bindingParamRefAuthz } from '../validatingadmissionpolicybindings/validatingadmissionpolicybindings.authz.js';
import { validatingAdmissionPolicyBindings } from '../validatingadmissionpolicybindings/validatingadmissionpolicybindings.resource.js';
import {
  policyParamKindAuthz,
  registryResolver,
  type ParamAuthorizerSource,
} from '../validatingadmissionpolicies/validatingadmissionpolicies.authz.js';
import { validatingAdmissionPolicies } from '../validatingadmissionpolicies/validatingadmissionpolicies.resource.js';

/** Add the checks to the stores of `registry` that serve the two kinds, asking `authorizer()`. */
export function installAdmissionPolicyAuthz(registry: ResourceRegistry, authorizer: ParamAuthorizerSource): void {
  const resolve = registryResolver(registry);
  const policies = registry.find(validatingAdmissionPolicies);
  policies?.addAdmission(policyParamKindAuthz(authorizer, resolve));
  if (policies)
    registry.find(validatingAdmissionPolicyBindings)?.addAdmission(bindingParamRefAuthz(authorizer, resolve, policies));
}
