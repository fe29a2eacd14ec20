/**
 * RBAC fields (k8s.io/api rbac/v1 types.go, 1.10): Role and ClusterRole hold PolicyRules (a
 * ClusterRole also an optional AggregationRule), RoleBinding and ClusterRoleBinding hold
 * Subjects and a RoleRef. Every string is optional here, as Go's decoder leaves a missing
 * field empty: what is required is reported by rbac.validation.ts with upstream's messages.
 */
import { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, list, obj, reqObj, str, strList, strMap } from '../../api/core/schema-kit.js';

/** One PolicyRule: verbs on resources of API groups, or on non-resource URLs. */
export const policyRuleSchema = reqObj({
  apiGroups: strList.describe('API groups of the resources; "" is the core group, "*" every group.'),
  nonResourceURLs: strList.describe(
    'Partial URLs (/healthz, /api/*) the rule allows; only in ClusterRoles, and not with resources.',
  ),
  resourceNames: strList.describe('Names of the objects the rule is restricted to; empty allows every name.'),
  resources: strList.describe('Resources (pods, pods/log, "*") the rule applies to.'),
  verbs: strList.describe(
    'Verbs (get, list, watch, create, update, patch, delete, deletecollection, "*") the rule allows; at least one.',
  ),
});

/**
 * A metav1.LabelSelector with every field optional (upstream's ValidateLabelSelector reports a
 * missing operator as an invalid one, which a required zod field would hide).
 */
const selectorSchema = reqObj({
  matchExpressions: list(reqObj({ key: str, operator: str, values: strList })).describe(
    'Requirements on label keys with an operator: In, NotIn, Exists or DoesNotExist.',
  ),
  matchLabels: strMap.describe('Labels an object must carry, key and value.'),
});

/** AggregationRule: the ClusterRoles whose rules a controller copies into this one. */
export const aggregationRuleSchema = obj({
  clusterRoleSelectors: list(selectorSchema).describe(
    'Selectors of the ClusterRoles to aggregate; at least one. A ClusterRole matching any of them contributes its rules.',
  ),
});

/** A binding's subject: a User, a Group or a ServiceAccount. */
export const subjectSchema = reqObj({
  apiGroup: str.describe(
    'API group of the subject: "" for ServiceAccount (the default), rbac.authorization.k8s.io for User and Group (the default).',
  ),
  kind: str.describe('User, Group or ServiceAccount.'),
  name: str.describe('Name of the user, group or service account.'),
  namespace: str.describe('Namespace of a ServiceAccount subject; required in ClusterRoleBindings.'),
});

/** The role a binding grants. Cannot be changed. One atomic struct for server-side apply (today's `+structType=atomic`). */
export const roleRefSchema = atomic(
  obj({
    apiGroup: str.describe('API group of the role: rbac.authorization.k8s.io (the default).'),
    kind: str.describe('Role or ClusterRole (only ClusterRole in a ClusterRoleBinding).'),
    name: str.describe('Name of the role.'),
  }),
);

const rules = list(policyRuleSchema);

/** Role: namespaced PolicyRules (no nonResourceURLs). */
export const roleSchema = kindSchema({
  rules: rules.describe('The PolicyRules of this Role, in its namespace.'),
});

/** ClusterRole: cluster-wide PolicyRules, optionally aggregated from other ClusterRoles. */
export const clusterRoleSchema = kindSchema({
  aggregationRule: aggregationRuleSchema.describe(
    'When set, the rules are computed by a controller from the ClusterRoles the selectors match, and direct changes to rules are overwritten.',
  ),
  rules: rules.describe('The PolicyRules of this ClusterRole, cluster-wide.'),
});

const subjects = list(subjectSchema);

/** RoleBinding: a Role or ClusterRole granted to subjects in the binding's namespace. */
export const roleBindingSchema = kindSchema({
  roleRef: roleRefSchema.describe(
    'The Role in this namespace, or a ClusterRole, granted to the subjects (in this namespace only). Cannot be updated.',
  ),
  subjects: subjects.describe('The users, groups and service accounts the role is granted to.'),
});

/** ClusterRoleBinding: a ClusterRole granted to subjects cluster-wide. */
export const clusterRoleBindingSchema = kindSchema({
  roleRef: roleRefSchema.describe('The ClusterRole granted to the subjects, cluster-wide. Cannot be updated.'),
  subjects: subjects.describe('The users, groups and service accounts the role is granted to.'),
});

/** A PolicyRule as its schema describes it. */
export type PolicyRule = z.infer<typeof policyRuleSchema>;
/** A Subject as its schema describes it. */
export type Subject = z.infer<typeof subjectSchema>;
/** A RoleRef as its schema describes it (absent when the body had none). */
export type RoleRef = NonNullable<z.infer<typeof roleRefSchema>>;
/** A metav1.LabelSelector of an AggregationRule. */
export type ClusterRoleSelector = z.infer<typeof selectorSchema>;

/** A Role (namespaced) as its schema describes it. */
export type Role = KindObject<typeof roleSchema>;
/** A ClusterRole as its schema describes it. */
export type ClusterRole = KindObject<typeof clusterRoleSchema>;
/** A RoleBinding (namespaced) as its schema describes it. */
export type RoleBinding = KindObject<typeof roleBindingSchema>;
/** A ClusterRoleBinding as its schema describes it. */
export type ClusterRoleBinding = KindObject<typeof clusterRoleBindingSchema>;
