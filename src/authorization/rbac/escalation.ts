/**
 * Nobody grants what they do not hold (upstream pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased): installed as admission on the RBAC stores, for writes by
 * users (not the server's own).
 *  - A Role or ClusterRole may be written with rules the writer does not hold only with the
 *    `escalate` verb on it; an aggregationRule needs full (cluster-admin) authority.
 *  - A RoleBinding or ClusterRoleBinding may refer to a role whose rules the writer does not
 *    hold only with the `bind` verb on that role; a missing role is 404.
 *  - Members of system:masters may do anything (upstream EscalationAllowed).
 * Refusals are 403 with upstream's message: `user "alice" (groups=["developers"
 * "system:authenticated"]) is attempting to grant RBAC permissions not currently held:` and one
 * missing rule per line.
 */
import type { ApiObject } from '../../api/object.js';
import { forbidden, notFound } from '../../errors/api-error.js';
import type { StoreHooks, WriterInfo } from '../../registry/hooks.js';
import type { Authorizer } from '../types.js';
import { compactRule, uncovered } from './covers.js';
import type { RbacAuthorizer } from './rbac-authorizer.js';
import type { PolicyRule } from './rules.js';

const GROUP = 'rbac.authorization.k8s.io';
const FULL_AUTHORITY: PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

type Rbac = Pick<RbacAuthorizer, 'rulesFor' | 'roleRefRules'>;
type RoleRef = { kind: string; name: string };

const rulesOf = (obj: ApiObject): PolicyRule[] => (obj as { rules?: PolicyRule[] }).rules ?? [];
const goQuoted = (list: readonly string[]) => `[${list.map((g) => JSON.stringify(g)).join(' ')}]`;

/** Whether `user` may `verb` the RBAC object `resource`/`name` in `namespace`. */
function allowed(authorizer: Authorizer, user: WriterInfo, verb: string, resource: string, namespace: string, name: string): boolean {
  const attrs = { user, verb, isResourceRequest: true, path: '', apiGroup: GROUP, apiVersion: 'v1', namespace, resource, subresource: '', name };
  return authorizer.authorize(attrs).decision === 'allow';
}

/** Throw 403 unless `user` holds every rule of `rules` in `namespace`. */
function confirmNoEscalation(rbac: Rbac, user: WriterInfo, namespace: string, rules: readonly PolicyRule[], resource: string, name: string): void {
  const missing = uncovered(rbac.rulesFor(user, namespace), rules);
  if (missing.length === 0) return;
  const why = `user "${user.name}" (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.map(compactRule).join('\n')}`;
  throw forbidden(resource, name, why, GROUP);
}

/** Admission for Roles (`resource` roles) and ClusterRoles (clusterroles). */
export function roleEscalationCheck(rbac: Rbac, authorizer: Authorizer, resource: 'roles' | 'clusterroles'): StoreHooks {
  const check = (obj: ApiObject, old: ApiObject | null, user: WriterInfo | undefined) => {
    if (!user || user.groups.includes('system:masters')) return;
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    if (allowed(authorizer, user, 'escalate', resource, namespace, name)) return;
    if ((obj as { aggregationRule?: unknown }).aggregationRule && uncovered(rbac.rulesFor(user, namespace), FULL_AUTHORITY).length) {
      throw forbidden(resource, name, 'must have cluster-admin privileges to use the aggregationRule', GROUP);
    }
    if (old && JSON.stringify(rulesOf(old)) === JSON.stringify(rulesOf(obj))) return;
    confirmNoEscalation(rbac, user, namespace, rulesOf(obj), resource, name);
  };
  return {
    beforeCreate: async (obj, attrs) => check(obj, null, attrs.user),
    beforeUpdate: async (obj, old, attrs) => check(obj, old, attrs.user),
  };
}

/** Admission for RoleBindings (`resource` rolebindings) and ClusterRoleBindings (clusterrolebindings). */
export function bindingEscalationCheck(rbac: Rbac, authorizer: Authorizer, resource: 'rolebindings' | 'clusterrolebindings'): StoreHooks {
  const check = (obj: ApiObject, old: ApiObject | null, user: WriterInfo | undefined) => {
    if (!user || user.groups.includes('system:masters')) return;
    const namespace = obj.metadata.namespace ?? '';
    const ref = (obj as { roleRef?: RoleRef }).roleRef ?? { kind: '', name: '' };
    if (old && JSON.stringify((old as { roleRef?: RoleRef }).roleRef) === JSON.stringify(ref)) return;
    const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    if (allowed(authorizer, user, 'bind', roleResource, namespace, ref.name)) return;
    const rules = rbac.roleRefRules(ref, namespace);
    if (!rules) throw notFound(roleResource, ref.name, GROUP);
    confirmNoEscalation(rbac, user, namespace, rules, resource, obj.metadata.name ?? '');
  };
  return {
    beforeCreate: async (obj, attrs) => check(obj, null, attrs.user),
    beforeUpdate: async (obj, old, attrs) => check(obj, old, attrs.user),
  };
}
