/**
 * Where the RBAC kinds are stored: the stores of our group (the upstream group serves the same
 * storage through stores of its own).
 */
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import {
  clusterRoleBindings as clusterRoleBindingsResource,
  clusterRoles as clusterRolesResource,
  roleBindings as roleBindingsResource,
  roles as rolesResource,
} from '../../resources/rbac/rbac.resource.js';
import type { RbacStores } from './rbac-authorizer.js';

export const RBAC_GROUP = 'rbac.authorization.ck.io';

/** Both groups RBAC is served under. */
export const RBAC_GROUPS = [RBAC_GROUP, 'rbac.authorization.k8s.io'];

/** The four RBAC stores, or undefined when the table does not serve them. */
export function rbacStores(registry: ResourceRegistry): RbacStores | undefined {
  const roles = registry.find(rolesResource);
  const clusterRoles = registry.find(clusterRolesResource);
  const roleBindings = registry.find(roleBindingsResource);
  const clusterRoleBindings = registry.find(clusterRoleBindingsResource);
  if (!roles || !clusterRoles || !roleBindings || !clusterRoleBindings) return undefined;
  return { roles, clusterRoles, roleBindings, clusterRoleBindings };
}

/** Every store serving `plural` of RBAC, in either group (admission goes on each). */
export function rbacStoresServing(registry: ResourceRegistry, plural: string): GenericStore[] {
  return registry.all().filter((s) => RBAC_GROUPS.includes(s.def.group) && s.def.plural === plural);
}
