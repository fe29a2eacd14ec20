/**
 * The RBAC kinds of rbac.authorization/v1 (k8s.io/api rbac/v1, registry of upstream 1.10
 * pkg/registry/rbac): Role, ClusterRole, RoleBinding, ClusterRoleBinding. Each is one storage
 * served twice, as SecurityContextConstraints is: under our group `rbac.authorization.ck.io`
 * and under upstream's `rbac.authorization.k8s.io` (for real manifests and clients), both at
 * v1 and sharing a storage prefix, so an object written under one group is read under the other.
 *
 * As upstream: path-segment names (`system:discovery`), no short names or categories, DELETE
 * answers with a Success Status (the RBAC stores do not set ReturnDeletedObject), JSON and
 * protobuf. Rules in rbac.validation.ts, columns in rbac.table.ts.
 */
import { validatePathSegmentName } from '../../api/names.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { rbacMessages } from './rbac.protobuf.js';
import {
  clusterRoleBindingSchema,
  clusterRoleSchema,
  roleBindingSchema,
  roleSchema,
  type ClusterRoleBinding,
  type RoleBinding,
} from './rbac.schema.js';
import { clusterRoleBindingPrinter, roleBindingPrinter, rolePrinter } from './rbac.table.js';
import {
  RBAC_CK_GROUP,
  RBAC_K8S_GROUP,
  defaultBinding,
  validateClusterRole,
  validateClusterRoleBinding,
  validateRole,
  validateRoleBinding,
  validateRoleRefUnchanged,
} from './rbac.validation.js';

/** What both groups' definitions of every RBAC kind share. */
const common = {
  validateName: validatePathSegmentName,
  protobuf: rbacMessages(RBAC_CK_GROUP, RBAC_K8S_GROUP),
} as const;

const role = {
  ...common,
  kind: 'Role',
  description: 'Role is a namespaced set of PolicyRules, granted to subjects by RoleBindings in its namespace.',
  plural: 'roles',
  namespaced: true,
  storagePrefix: 'roles',
  schema: roleSchema,
  printer: rolePrinter,
  strategy: {
    validate: validateRole,
    // Upstream ValidateRoleUpdate: metadata (the store's), then the rules of a new Role.
    validateUpdate: validateRole,
  },
} as const;

const clusterRole = {
  ...common,
  kind: 'ClusterRole',
  description:
    'ClusterRole is a cluster-wide set of PolicyRules, granted by ClusterRoleBindings (everywhere) or RoleBindings (in one namespace); its rules may be aggregated from other ClusterRoles.',
  plural: 'clusterroles',
  namespaced: false,
  storagePrefix: 'clusterroles',
  schema: clusterRoleSchema,
  printer: rolePrinter,
  strategy: {
    validate: validateClusterRole,
    // Upstream ValidateClusterRoleUpdate: metadata (the store's), then the rules of a new ClusterRole.
    validateUpdate: validateClusterRole,
  },
} as const;

const roleBinding = {
  ...common,
  kind: 'RoleBinding',
  description:
    'RoleBinding grants the rules of a Role of its namespace, or of a ClusterRole, to users, groups and service accounts, in its namespace only.',
  plural: 'rolebindings',
  namespaced: true,
  storagePrefix: 'rolebindings',
  schema: roleBindingSchema,
  printer: roleBindingPrinter,
  strategy: {
    defaults: defaultBinding,
    validate: validateRoleBinding,
    // Upstream ValidateRoleBindingUpdate: the rules of a new RoleBinding, and roleRef unchanged.
    validateUpdate: (obj: RoleBinding, old: RoleBinding) => [
      ...validateRoleBinding(obj),
      ...validateRoleRefUnchanged(obj, old),
    ],
  },
} as const;

const clusterRoleBinding = {
  ...common,
  kind: 'ClusterRoleBinding',
  description:
    'ClusterRoleBinding grants the rules of a ClusterRole to users, groups and service accounts, cluster-wide.',
  plural: 'clusterrolebindings',
  namespaced: false,
  storagePrefix: 'clusterrolebindings',
  schema: clusterRoleBindingSchema,
  printer: clusterRoleBindingPrinter,
  strategy: {
    defaults: defaultBinding,
    validate: validateClusterRoleBinding,
    // Upstream ValidateClusterRoleBindingUpdate: the rules of a new ClusterRoleBinding, and roleRef unchanged.
    validateUpdate: (obj: ClusterRoleBinding, old: ClusterRoleBinding) => [
      ...validateClusterRoleBinding(obj),
      ...validateRoleRefUnchanged(obj, old),
    ],
  },
} as const;

/** Role under rbac.authorization.ck.io/v1. */
export const roles = defineResource({ ...role, group: RBAC_CK_GROUP });
/** ClusterRole under rbac.authorization.ck.io/v1. */
export const clusterRoles = defineResource({ ...clusterRole, group: RBAC_CK_GROUP });
/** RoleBinding under rbac.authorization.ck.io/v1. */
export const roleBindings = defineResource({ ...roleBinding, group: RBAC_CK_GROUP });
/** ClusterRoleBinding under rbac.authorization.ck.io/v1. */
export const clusterRoleBindings = defineResource({ ...clusterRoleBinding, group: RBAC_CK_GROUP });

/** Role under rbac.authorization.k8s.io/v1 (same storage as {@link roles}). */
export const rolesK8s = defineResource({ ...role, group: RBAC_K8S_GROUP });
/** ClusterRole under rbac.authorization.k8s.io/v1 (same storage as {@link clusterRoles}). */
export const clusterRolesK8s = defineResource({ ...clusterRole, group: RBAC_K8S_GROUP });
/** RoleBinding under rbac.authorization.k8s.io/v1 (same storage as {@link roleBindings}). */
export const roleBindingsK8s = defineResource({ ...roleBinding, group: RBAC_K8S_GROUP });
/** ClusterRoleBinding under rbac.authorization.k8s.io/v1 (same storage as {@link clusterRoleBindings}). */
export const clusterRoleBindingsK8s = defineResource({ ...clusterRoleBinding, group: RBAC_K8S_GROUP });

/**
 * All eight definitions, for the resource table: our group first, then upstream's, each in
 * upstream's discovery order (clusterrolebindings, clusterroles, rolebindings, roles).
 */
export const RBAC_RESOURCES: readonly ResourceDefinition[] = [
  clusterRoleBindings,
  clusterRoles,
  roleBindings,
  roles,
  clusterRoleBindingsK8s,
  clusterRolesK8s,
  roleBindingsK8s,
  rolesK8s,
];
