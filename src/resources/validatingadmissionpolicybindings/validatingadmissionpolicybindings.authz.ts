/**
 * Who may name a paramRef (k8s.io/kubernetes
 * pkg/registry/admissionregistration/validatingadmissionpolicybinding/authz.go, 1.33): a create
 * or update of a well-formed binding with a paramRef needs `get` on the referenced parameter
 * (its name and namespace; the group, version and resource of the bound policy's paramKind when
 * the policy exists and has one, else `*`). Upstream skips an update whose paramRef and
 * policyName are unchanged, comparing the ParamRef structs with Go's `==`; their selector and
 * parameterNotFoundAction are pointers, and the latter is always set by defaulting, so two
 * decoded objects never compare equal and every update is checked: so here too. Members of
 * system:masters skip it. A refusal is 422 Invalid with the cause `spec.paramRef: Forbidden:
 * user &{alice  [system:authenticated] map[]} does not have "get" permission on the object
 * referenced by paramRef`. Like the policies' check, an admission step installed where the
 * authorizer is known, after validation, on dry runs too.
 */
import { forbidden } from '../../api/validation/field-errors.js';
import { invalid } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import type { StoreHooks } from '../../registry/hooks.js';
import type { ResourceStore } from '../../registry/types.js';
import {
  goUser,
  isPrivileged,
  paramAccess,
  type KindResolver,
  type ParamAuthorizerSource,
} from '../validatingadmissionpolicies/validatingadmissionpolicies.authz.js';
import type { ValidatingAdmissionPolicy } from '../validatingadmissionpolicies/validatingadmissionpolicies.schema.js';
import type { ValidatingAdmissionPolicyBinding } from './validatingadmissionpolicybindings.schema.js';

const KIND = 'ValidatingAdmissionPolicyBinding';
const GROUP = 'admissionregistration.k8s.io';

/**
 * Go's `*old.ParamRef == *new.ParamRef && old.PolicyName == new.PolicyName`: true only when
 * neither paramRef holds a pointer field (selector, parameterNotFoundAction), which defaulting
 * rules out for stored bindings.
 */
function samePointerFreeRef(old: ValidatingAdmissionPolicyBinding, now: ValidatingAdmissionPolicyBinding): boolean {
  const [a, b] = [old.spec?.paramRef, now.spec?.paramRef];
  if (!a || !b || a.selector || b.selector || a.parameterNotFoundAction || b.parameterNotFoundAction) return false;
  return (
    (a.name ?? '') === (b.name ?? '') &&
    (a.namespace ?? '') === (b.namespace ?? '') &&
    old.spec?.policyName === now.spec?.policyName
  );
}

/** The admission step of the bindings' store; `policies` reads the bound policy (upstream PolicyGetter). */
export function bindingParamRefAuthz(
  authorizerOf: ParamAuthorizerSource,
  resolve: KindResolver,
  policies: Pick<ResourceStore<ValidatingAdmissionPolicy>, 'get'>,
): StoreHooks<ValidatingAdmissionPolicyBinding> {
  const check = async (
    binding: ValidatingAdmissionPolicyBinding,
    old: ValidatingAdmissionPolicyBinding | null,
    user?: WriterInfo,
  ) => {
    const ref = binding.spec?.paramRef;
    const authorizer = authorizerOf();
    if (!ref || !authorizer) return;
    if (old && samePointerFreeRef(old, binding)) return;
    if (isPrivileged(user)) return;
    const name = binding.metadata.name ?? '';
    const refuse = (detail: string) => invalid(KIND, name, [forbidden('spec.paramRef', detail)], GROUP);
    if (!user) throw refuse('cannot identify user to authorize read access to paramRef object');
    const policy = await policies.get('', binding.spec?.policyName ?? '').catch(() => undefined);
    const pk = policy?.spec?.paramKind;
    const attrs = pk
      ? paramAccess(user, pk.apiVersion ?? '', pk.kind ?? '', resolve, ref.name ?? '', ref.namespace ?? '')
      : {
          ...paramAccess(user, '', '', resolve, ref.name ?? '', ref.namespace ?? ''),
          apiGroup: '*',
          apiVersion: '*',
          resource: '*',
        };
    if (authorizer.authorize(attrs).decision !== 'allow')
      throw refuse(`user ${goUser(user)} does not have "get" permission on the object referenced by paramRef`);
  };
  return {
    beforeCreate: (binding, attrs) => check(binding, null, attrs.user),
    beforeUpdate: (binding, old, attrs) => check(binding, old, attrs.user),
  };
}
