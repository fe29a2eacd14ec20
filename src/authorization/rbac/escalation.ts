/**
 * Nobody grants what they do not hold (upstream pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased/storage.go and pkg/registry/rbac/escalation_check.go):
 * installed as admission on every store of the RBAC kinds, so that every write of them (create,
 * update, every patch type, server-side apply, dry run) is checked on the object it would store.
 *  - Members of system:masters may do anything (upstream EscalationAllowed).
 *  - A Role or ClusterRole may be written with rules the writer does not hold only with the
 *    `escalate` verb on it (asked for the resource, namespace and the request's name, none on a
 *    POST: upstream RoleEscalationAuthorized; in group rbac.authorization.k8s.io, or the
 *    group the request came in); an aggregationRule needs full (cluster-admin) authority besides.
 *  - A RoleBinding or ClusterRoleBinding may refer to a role whose rules the writer does not
 *    hold only with the `bind` verb on that role (upstream BindingAuthorized); a missing role is
 *    404 NotFound.
 *  - Every update is checked, whatever changed (labels that aggregate a role, subjects of a
 *    binding), except one that only changes ownerReferences or finalizers, which the garbage
 *    collector must be able to do (upstream IsOnlyMutatingGCFields).
 *  - A write with no user (none of the server's own writes: they run as {@link SERVER_WRITER})
 *    is refused, as upstream's `no user on context`.
 * Refusals are 403 with upstream's message: `user "alice" (groups=["developers"
 * "system:authenticated"]) is attempting to grant RBAC permissions not currently held:` and one
 * missing rule per line, compacted and sorted.
 */
import { forbidden, notFound } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import type { AdmissionAttributes, StoreHooks } from '../../registry/hooks.js';
import type { Authorizer } from '../types.js';
import { compactRule, compactRules, uncovered } from './covers.js';
import { isOnlyMutatingGcFields } from './gc-fields.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
} from '../../resources/rbac/rbac.schema.js';
import type { RbacAuthorizer } from './rbac-authorizer.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const PRIVILEGED_GROUP = 'system:masters';
const FULL_AUTHORITY: PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

type Rbac = Pick<RbacAuthorizer, 'rulesFor' | 'roleRefRules'>;

/** The store a check is installed on: its group (the request's) and resource. */
export interface RbacStoreInfo {
  readonly group: string;
  readonly plural: 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
}

const rulesOf = (obj: Role | ClusterRole): PolicyRule[] => obj.rules ?? [];
const goQuoted = (list: readonly string[]) => `[${list.map((g) => JSON.stringify(g)).join(' ')}]`;
const privileged = (user: WriterInfo | undefined): boolean => Boolean(user?.groups.includes(PRIVILEGED_GROUP));

/** Whether `user` may `verb` the RBAC resource `resource`/`name` of `group` in `namespace`. */
function allowed(
  authorizer: Authorizer,
  user: WriterInfo,
  verb: string,
  group: string,
  resource: string,
  namespace: string,
  name: string,
): boolean {
  const attrs = {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: group,
    apiVersion: '*',
    namespace,
    resource,
    subresource: '',
    name,
  };
  return authorizer.authorize(attrs).decision === 'allow';
}

/**
 * Throw 403 unless `user` holds every rule of `rules` in `namespace` (upstream
 * ConfirmNoEscalation); `why` replaces the listing of missing rules when given.
 */
function confirmNoEscalation(
  rbac: Rbac,
  user: WriterInfo | undefined,
  namespace: string,
  rules: readonly PolicyRule[],
  where: RbacStoreInfo,
  name: string,
  why?: string,
): void {
  if (!user) throw forbidden(where.plural, name, 'no user on context', where.group);
  const missing = uncovered(rbac.rulesFor(user, namespace), rules);
  if (missing.length === 0) return;
  const lines = [...new Set(compactRules(missing).map(compactRule))].sort();
  const text =
    why ??
    `user "${user.name}" (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  throw forbidden(where.plural, name, text, where.group);
}

/** Admission for Roles and ClusterRoles of one store (`where`). */
export function roleEscalationCheck(
  rbac: Rbac,
  authorizer: Authorizer,
  where: RbacStoreInfo,
): StoreHooks<Role | ClusterRole> {
  const check = (obj: Role | ClusterRole, old: Role | ClusterRole | null, attrs: AdmissionAttributes) => {
    const { user } = attrs;
    if (privileged(user)) return;
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    // The request's name (none on a create POSTed to the collection), as upstream; escalate is
    // asked in upstream's group, which roles name, and in the group the request came in.
    const requestName = attrs.requestName ?? (old ? name : '');
    if (
      user &&
      [RBAC_GROUP, where.group].some((g) =>
        allowed(authorizer, user, 'escalate', g, where.plural, namespace, requestName),
      )
    )
      return;
    if (old && isOnlyMutatingGcFields(obj, old)) return;
    confirmNoEscalation(rbac, user, namespace, rulesOf(obj), where, name);
    if (obj.aggregationRule) {
      confirmNoEscalation(
        rbac,
        user,
        namespace,
        FULL_AUTHORITY,
        where,
        name,
        'must have cluster-admin privileges to use the aggregationRule',
      );
    }
  };
  return {
    beforeCreate: async (obj, attrs) => check(obj, null, attrs),
    beforeUpdate: async (obj, old, attrs) => check(obj, old, attrs),
  };
}

/** Admission for RoleBindings and ClusterRoleBindings of one store (`where`). */
export function bindingEscalationCheck(
  rbac: Rbac,
  authorizer: Authorizer,
  where: RbacStoreInfo,
): StoreHooks<RoleBinding | ClusterRoleBinding> {
  const check = (
    obj: RoleBinding | ClusterRoleBinding,
    old: RoleBinding | ClusterRoleBinding | null,
    attrs: AdmissionAttributes,
  ) => {
    const { user } = attrs;
    if (privileged(user)) return;
    if (old && isOnlyMutatingGcFields(obj, old)) return;
    const namespace = obj.metadata.namespace ?? '';
    const ref = obj.roleRef ?? { kind: '', name: '' };
    const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    const roleName = ref.name ?? '';
    if (user && allowed(authorizer, user, 'bind', ref.apiGroup || RBAC_GROUP, roleResource, namespace, roleName))
      return;
    const rules = rbac.roleRefRules(ref, namespace);
    if (!rules) throw notFound(roleResource, roleName, RBAC_GROUP);
    confirmNoEscalation(rbac, user, namespace, rules, where, obj.metadata.name ?? '');
  };
  return {
    beforeCreate: async (obj, attrs) => check(obj, null, attrs),
    beforeUpdate: async (obj, old, attrs) => check(obj, old, attrs),
  };
}
