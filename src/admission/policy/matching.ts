/**
 * Whether a policy's matchConstraints or a binding's matchResources select a request, and with
 * which resource and kind (upstream k8s.io/apiserver pkg/admission/plugin/policy/matching/
 * matching.go and generic/policy_matcher.go): the namespaceSelector and objectSelector (their
 * errors reported only when a rule matches), then excludeResourceRules (a match excludes the
 * request), then resourceRules with their resourceNames (none: every resource matches, as the
 * request addressed it). Under matchPolicy Equivalent a rule may match a resource served over
 * the same storage in another group or version; that resource and its kind are then the ones
 * the policy sees. An unset matchPolicy matches as Exact, as upstream's matcher does.
 */
import { ApiError, internalError } from '../../errors/api-error.js';
import { errorMessage } from '../../api/error-message.js';
import type { GroupVersionKind, GroupVersionResource } from '../../registry/hooks.js';
import type { ResourceDefinition } from '../../registry/types.js';
import type { WebhookRule } from '../../resources/webhook-common/webhook.schema.js';
import { ruleMatches } from '../webhooks/rules.js';
import { namespaceSelectorMatches, objectSelectorMatches, type NamespaceLabels } from '../webhooks/selectors.js';
import type { AdmissionRequest } from '../webhooks/types.js';
import { equivalentRows } from '../webhooks/versions.js';
import type { MatchResources, NamedRule } from './types.js';

/** What matching reads beside the request. */
export interface PolicyMatchDeps {
  readonly namespaceLabels: NamespaceLabels;
  /** Every row served (for matchPolicy Equivalent). */
  readonly rows: () => readonly ResourceDefinition[];
}

/** A match: the resource and kind the policy sees, and the row serving them. */
export interface PolicyMatch {
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
  readonly def: ResourceDefinition;
}

/** A rule of matchResources as the webhooks' rule matcher takes it. */
function asWebhookRule(r: NamedRule): WebhookRule {
  const copy = (l: readonly string[] | null | undefined) => (l ? [...l] : l);
  return {
    operations: copy(r.operations),
    apiGroups: copy(r.apiGroups),
    apiVersions: copy(r.apiVersions),
    resources: copy(r.resources),
    scope: r.scope,
  };
}

const nameMatches = (rule: NamedRule, name: string): boolean =>
  !rule.resourceNames?.length || rule.resourceNames.includes(name);

/** The first rule of `rules` matching `req` (upstream matchesResourceRules), or null. */
function matchesResourceRules(
  rules: readonly NamedRule[],
  matchPolicy: string | null | undefined,
  req: AdmissionRequest,
  deps: PolicyMatchDeps,
): PolicyMatch | null {
  for (const rule of rules) {
    if (ruleMatches(asWebhookRule(rule), req) && nameMatches(rule, req.name))
      return { resource: req.resource, kind: req.kind, def: req.def };
  }
  if (!matchPolicy || matchPolicy === 'Exact') return null;
  const equivalents = equivalentRows(deps.rows(), req.def, req.subresource);
  for (const rule of rules) {
    for (const def of equivalents) {
      const resource = { group: def.group, version: def.version, resource: def.plural };
      if (!ruleMatches(asWebhookRule(rule), { ...req, resource }) || !nameMatches(rule, req.name)) continue;
      const sub = req.subresource ? def.subresources.find((s) => s.name === req.subresource) : undefined;
      const [group, version] = splitApiVersion(sub?.apiVersion);
      const kind = sub
        ? { group: group ?? def.group, version: version ?? def.version, kind: sub.kind }
        : { group: def.group, version: def.version, kind: def.kind };
      return { resource, kind, def };
    }
  }
  return null;
}

/** `group/version` (or `version`) split; [undefined, undefined] when absent. */
function splitApiVersion(apiVersion: string | undefined): [string | undefined, string | undefined] {
  if (!apiVersion) return [undefined, undefined];
  const i = apiVersion.indexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

/** Run `f`, keeping its error (a non-ApiError as 500) to report later. */
async function settle<T>(f: () => T | Promise<T>): Promise<{ value?: T; error?: ApiError }> {
  try {
    return { value: await f() };
  } catch (err) {
    return { error: err instanceof ApiError ? err : internalError(errorMessage(err)) };
  }
}

/**
 * Whether `criteria` select `req` (upstream Matcher.Matches): the match, or null. Throws the
 * selectors' errors (ApiError 404 for a missing namespace, 500 for a selector that cannot be
 * parsed) when the rules match.
 */
export async function matchResources(
  criteria: MatchResources,
  req: AdmissionRequest,
  deps: PolicyMatchDeps,
): Promise<PolicyMatch | null> {
  const ns = await settle(() => namespaceSelectorMatches(criteria.namespaceSelector, req, deps.namespaceLabels));
  if (!ns.error && !ns.value) return null;
  const obj = await settle(() => objectSelectorMatches(criteria.objectSelector, req));
  if (!obj.error && !obj.value) return null;
  if (matchesResourceRules(criteria.excludeResourceRules ?? [], criteria.matchPolicy, req, deps)) return null;
  const rules = criteria.resourceRules ?? [];
  const match = rules.length
    ? matchesResourceRules(rules, criteria.matchPolicy, req, deps)
    : { resource: req.resource, kind: req.kind, def: req.def };
  if (!match) return null;
  if (ns.error) throw ns.error;
  if (obj.error) throw obj.error;
  return match;
}

/** Thrown when a policy has no matchConstraints (upstream DefinitionMatches). */
export class PolicyConfigurationError extends Error {}

/**
 * Whether a policy's matchConstraints select `req` (upstream DefinitionMatches). Throws
 * PolicyConfigurationError without matchConstraints, and the errors of {@link matchResources}.
 */
export async function definitionMatches(
  constraints: MatchResources | null | undefined,
  req: AdmissionRequest,
  deps: PolicyMatchDeps,
): Promise<PolicyMatch | null> {
  if (!constraints) throw new PolicyConfigurationError('policy contained no match constraints, a required field');
  return matchResources(constraints, req, deps);
}

/** Whether a binding's matchResources select `req` (none: every request). Throws as {@link matchResources}. */
export async function bindingMatches(
  resources: MatchResources | null | undefined,
  req: AdmissionRequest,
  deps: PolicyMatchDeps,
): Promise<boolean> {
  if (!resources) return true;
  return (await matchResources(resources, req, deps)) !== null;
}
