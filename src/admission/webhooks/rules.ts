/**
 * Whether a webhook rule matches a request (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/predicates/rules/rules.go): scope, operation, group, version
 * and resource (`pods`, `pods/status`, `*`, `*\/*`, `*\/status`), each `*` matching anything.
 * Also which requests no configured webhook may see (IsExemptAdmissionConfigurationResource).
 */
import type { WebhookRule } from '../../resources/webhook-common/webhook.schema.js';
import type { AdmissionOperation, GroupVersionKind, GroupVersionResource } from '../../registry/hooks.js';

/** What a rule is matched against. */
export interface RuleTarget {
  readonly operation: AdmissionOperation;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  /** '' for a cluster-scoped object. */
  readonly namespace: string;
}

const exactOrWildcard = (items: readonly string[] | null | undefined, requested: string): boolean =>
  (items ?? []).some((item) => item === '*' || item === requested);

const isNamespaceResource = (r: GroupVersionResource): boolean =>
  r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

/** Rule.scope: `*` (or unset) anything; Namespaced needs a namespace; Cluster none, or a Namespace itself. */
function scopeMatches(scope: string | null | undefined, t: RuleTarget): boolean {
  if (!scope || scope === '*') return true;
  if (scope === 'Namespaced') return !isNamespaceResource(t.resource) && t.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(t.resource) || t.namespace === '';
  return false;
}

/** `res/sub` split at the first slash (`pods` has no subresource). */
function splitResource(resSub: string): [string, string] {
  const i = resSub.indexOf('/');
  return i < 0 ? [resSub, ''] : [resSub.slice(0, i), resSub.slice(i + 1)];
}

function resourceMatches(resources: readonly string[] | null | undefined, t: RuleTarget): boolean {
  return (resources ?? []).some((entry) => {
    const [res, sub] = splitResource(entry);
    return (res === '*' || res === t.resource.resource) && (sub === '*' || sub === t.subresource);
  });
}

/** Whether `rule` matches `t` (upstream rules.Matcher.Matches). */
export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  return (
    scopeMatches(rule.scope, t) &&
    exactOrWildcard(rule.operations, t.operation) &&
    exactOrWildcard(rule.apiGroups, t.resource.group) &&
    exactOrWildcard(rule.apiVersions, t.resource.version) &&
    resourceMatches(rule.resources, t)
  );
}

/** The kinds no configured webhook is called for, so that a webhook cannot lock itself in. */
const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/**
 * Whether a request of `kind` is exempt from webhooks (upstream
 * IsExemptAdmissionConfigurationResource): the admissionregistration kinds, here also under the
 * spec's admissionregistration.ck.io group, which shares their storage.
 */
export function isExemptKind(kind: GroupVersionKind): boolean {
  return (
    (kind.group === 'admissionregistration.k8s.io' || kind.group === 'admissionregistration.ck.io') &&
    EXEMPT_KINDS.has(kind.kind)
  );
}
