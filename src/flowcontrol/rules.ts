/**
 * Whether a request matches a FlowSchema (upstream k8s.io/apiserver pkg/util/flowcontrol
 * rule.go): a schema matches when one of its rules does; a rule matches when one of its
 * subjects is the requester and, for a resource request, one of its resource rules matches
 * (verb, API group, `resource` or `resource/subresource`, and the namespace, or clusterScope
 * for a request without one), else one of its non-resource rules (verb and URL: exact, `*`, or
 * a `prefix/*` subtree). A wildcard counts only as a list's sole member, as validation makes it.
 */
import type {
  FlowSchemaView,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  RequestDigest,
  ResourcePolicyRule,
  Subject,
} from './types.js';
import type { UserInfo } from '../auth/user-info.js';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** True when `fs` has a rule that matches `digest`. */
export function matchesFlowSchema(digest: RequestDigest, fs: FlowSchemaView): boolean {
  for (const rule of fs.spec.rules ?? []) if (matchesPolicyRule(digest, rule)) return true;
  return false;
}

function matchesPolicyRule(digest: RequestDigest, rule: PolicyRulesWithSubjects): boolean {
  if (!rule.subjects.some((s) => matchesSubject(digest.user, s))) return false;
  if (digest.isResourceRequest) return (rule.resourceRules ?? []).some((r) => matchesResourceRule(digest, r));
  return (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(digest, r));
}

/** Upstream matchesSubject: User and Group by name or `*`; ServiceAccount by namespace and name or `*`. */
export function matchesSubject(user: UserInfo, subject: Subject): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.user !== undefined && (subject.user.name === '*' || subject.user.name === user.name);
    case 'Group': {
      const seek = subject.group?.name;
      if (seek === undefined) return false;
      return seek === '*' || user.groups.includes(seek);
    }
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa || !user.name.startsWith(SERVICE_ACCOUNT_PREFIX)) return false;
      const rest = user.name.slice(SERVICE_ACCOUNT_PREFIX.length);
      if (sa.name === '*') return rest.startsWith(`${sa.namespace}:`);
      return rest === `${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

function matchesResourceRule(digest: RequestDigest, rule: ResourcePolicyRule): boolean {
  if (!contains(digest.verb, rule.verbs, '*')) return false;
  const resource = digest.subresource ? `${digest.resource}/${digest.subresource}` : digest.resource;
  if (!contains(resource, rule.resources, '*')) return false;
  if (!contains(digest.group, rule.apiGroups, '*')) return false;
  if (!digest.namespace) return rule.clusterScope === true;
  return contains(digest.namespace, rule.namespaces ?? [], '*');
}

function matchesNonResourceRule(digest: RequestDigest, rule: NonResourcePolicyRule): boolean {
  if (!contains(digest.verb, rule.verbs, '*')) return false;
  for (const url of rule.nonResourceURLs) {
    if (url === '*' || url === digest.path) return true;
    let prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    if (!prefix.endsWith('/')) prefix += '/';
    if (digest.path.startsWith(prefix)) return true;
  }
  return false;
}

/** Upstream containsString: `wildcard` as the list's only member matches everything. */
function contains(x: string, list: readonly string[], wildcard: string): boolean {
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(x);
}
