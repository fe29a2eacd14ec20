/**
 * Builders the bootstrap policy files share (upstream bootstrappolicy's rule builder and its
 * addDefaultMetadata): every object carries the label `kubernetes.io/bootstrapping:
 * rbac-defaults` and the annotation `rbac.authorization.kubernetes.io/autoupdate: "true"`; a
 * rule's verbs, groups, resources, names and URLs are sorted, as upstream's builder sorts them.
 * A group also served here under our `*.ck.io` name is listed under both names, ours right
 * after upstream's.
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  Subject,
} from '../../resources/rbac/rbac.schema.js';

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAP_LABELS: Readonly<Record<string, string>> = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const ANNOTATIONS = { [AUTOUPDATE_ANNOTATION]: 'true' };
const RBAC_API = 'rbac.authorization.k8s.io';

export const aggregateLabel = (to: string) => `rbac.authorization.k8s.io/aggregate-to-${to}`;

export const READ = ['get', 'list', 'watch'] as const;
export const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'] as const;
export const READ_WRITE = [...READ, ...WRITE] as const;
export const READ_UPDATE = ['get', 'list', 'patch', 'update', 'watch'] as const;

/** Upstream groups also served under a name of ours (the same storage). */
const CK_TWINS: Readonly<Record<string, string>> = {
  'admissionregistration.k8s.io': 'admissionregistration.ck.io',
  'authentication.k8s.io': 'authentication.ck.io',
  'authorization.k8s.io': 'authorization.ck.io',
  'certificates.k8s.io': 'certificates.ck.io',
  'events.k8s.io': 'events.ck.io',
  'networking.k8s.io': 'networking.ck.io',
  'rbac.authorization.k8s.io': 'rbac.authorization.ck.io',
  'storage.k8s.io': 'storage.ck.io',
};

/** Whether `group` is one of our `*.ck.io` names (tests compare rules without them). */
export const isCkGroup = (group: string) => group.endsWith('.ck.io');

const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();

/** A resource rule: `verbs` on `resources` of `groups` ("" is core), optionally only the objects `names`. */
export function rule(
  groups: readonly string[],
  resources: readonly string[],
  verbs: readonly string[],
  names?: readonly string[],
): PolicyRule {
  // Upstream's names sorted, each followed by ours where we have one.
  const apiGroups = sorted(groups).flatMap((g) => (CK_TWINS[g] ? [g, CK_TWINS[g]] : [g]));
  return {
    apiGroups,
    ...(names?.length ? { resourceNames: sorted(names) } : {}),
    resources: sorted(resources),
    verbs: sorted(verbs),
  };
}

/** A rule on core (legacy group) resources. */
export const core = (resources: readonly string[], verbs: readonly string[], names?: readonly string[]) =>
  rule([''], resources, verbs, names);

/** A rule on non-resource URLs. */
export const urls = (paths: readonly string[], verbs: readonly string[]): PolicyRule => ({
  nonResourceURLs: sorted(paths),
  verbs: sorted(verbs),
});

/** Upstream's eventsRule: write events in the core group and events.k8s.io. */
export const eventsRule = (): PolicyRule => rule(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']);

const meta = (name: string, labels: Record<string, string> = {}, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { ...BOOTSTRAP_LABELS, ...labels },
  annotations: { ...ANNOTATIONS },
});

export function clusterRole(
  name: string,
  rules: PolicyRule[],
  labels: Record<string, string> = {},
  aggregateFrom?: string,
): ClusterRole {
  return {
    apiVersion: `${RBAC_API}/v1`,
    kind: 'ClusterRole',
    metadata: meta(name, labels),
    ...(aggregateFrom
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel(aggregateFrom)]: 'true' } }] } }
      : {}),
    rules,
  };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: `${RBAC_API}/v1`, kind: 'Role', metadata: meta(name, {}, namespace), rules };
}

/** Subjects, as upstream's binding builder writes them. */
export const groupSubject = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_API, name });
export const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_API, name });
export const serviceAccountSubject = (namespace: string, name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace,
});

export function clusterRoleBinding(name: string, subjects: Subject[], roleName = name): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC_API}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: meta(name),
    roleRef: { apiGroup: RBAC_API, kind: 'ClusterRole', name: roleName },
    subjects,
  };
}

export function roleBinding(namespace: string, name: string, roleName: string, subjects: Subject[]): RoleBinding {
  return {
    apiVersion: `${RBAC_API}/v1`,
    kind: 'RoleBinding',
    metadata: meta(name, {}, namespace),
    roleRef: { apiGroup: RBAC_API, kind: 'Role', name: roleName },
    subjects,
  };
}
