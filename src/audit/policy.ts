/**
 * The audit policy (`--audit-policy-file`): an `audit.k8s.io/v1` Policy read from YAML or
 * JSON, validated, and evaluated per request, as upstream k8s.io/apiserver does
 * (pkg/audit/policy/reader.go, pkg/apis/audit/validation, pkg/audit/policy/checker.go):
 * the FIRST rule matching a request gives its level; no match is level None; a rule's
 * omitStages are united with the policy's.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { validateDns1123Subdomain } from '../api/names.js';
import { errorMessage } from '../api/error-message.js';

/** Audit levels, least to most (upstream audit.Level). */
export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];

/** Stages of a request at which events are emitted (upstream audit.Stage). */
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** API group versions a policy file may name; all but v1 are deprecated (a warning). */
const GROUP_VERSIONS = ['audit.k8s.io/v1', 'audit.k8s.io/v1beta1', 'audit.k8s.io/v1alpha1'];

/** Resources of one API group a rule matches (upstream GroupResources; '' = core). */
export interface GroupResources {
  readonly group: string;
  /** `pods`, `pods/log`, `*` (all and their subresources), `pods/*` (pods and its subresources), `*\/scale`; empty = all. */
  readonly resources: readonly string[];
  /** Object names (needs resources); empty = every name. */
  readonly resourceNames: readonly string[];
}

/** One rule (upstream PolicyRule): every non-empty field must match; empty lists match all. */
export interface PolicyRule {
  readonly level: Level;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** '' matches cluster-scoped resources. */
  readonly namespaces: readonly string[];
  /** Paths of non-resource requests: exact, `*`, or a prefix ending in `*`. */
  readonly nonResourceURLs: readonly string[];
  readonly omitStages: readonly Stage[];
  /** Overrides the policy's omitManagedFields when set. */
  readonly omitManagedFields?: boolean;
}

/** A validated policy. */
export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

/** What a rule is matched against (upstream authorizer.Attributes). `user` is absent when authentication failed. */
export interface AuditAttributes {
  readonly user?: { readonly name: string; readonly groups: readonly string[] };
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** How one request is audited (upstream RequestAuditConfig with its level). */
export interface RequestAuditConfig {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

/** A policy that cannot be read or is invalid; the message is upstream's wording. */
export class PolicyError extends Error {}

/** True when `level` is at least `min` (upstream Level.Less negated). */
export function levelAtLeast(level: Level, min: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}

/** Evaluates a policy for each request (upstream policy.NewChecker / LevelAndStages). */
export class PolicyChecker {
  private readonly rules: readonly (PolicyRule & { readonly stages: readonly Stage[] })[];

  constructor(private readonly policy: Policy) {
    this.rules = policy.rules.map((r) => ({ ...r, stages: [...new Set([...policy.omitStages, ...r.omitStages])] }));
  }

  /** The level, omitted stages and managed-field handling for a request. Never throws. */
  evaluate(attrs: AuditAttributes): RequestAuditConfig {
    for (const rule of this.rules) {
      if (ruleMatches(rule, attrs))
        return {
          level: rule.level,
          omitStages: rule.stages,
          omitManagedFields: rule.omitManagedFields ?? this.policy.omitManagedFields,
        };
    }
    return { level: 'None', omitStages: this.policy.omitStages, omitManagedFields: this.policy.omitManagedFields };
  }
}

/** Upstream ruleMatches: users, groups and verbs, then resources/namespaces or non-resource URLs. */
export function ruleMatches(r: PolicyRule, attrs: AuditAttributes): boolean {
  const user = attrs.user;
  if (r.users.length && (!user || !r.users.includes(user.name))) return false;
  if (r.userGroups.length && (!user || !user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length && !r.verbs.includes(attrs.verb)) return false;
  if (r.namespaces.length || r.resources.length) return matchesResource(r, attrs);
  if (r.nonResourceURLs.length)
    return !attrs.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

/** `*`, an exact path, or a prefix followed by a trailing `*` (upstream pathMatches). */
function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

/** Upstream ruleMatchesResource, including `*`, `pods/*` (pods and its subresources) and `*\/status`. */
function matchesResource(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  if (r.namespaces.length && !r.namespaces.includes(attrs.namespace)) return false;
  if (r.resources.length === 0) return true;
  const { resource, subresource, name } = attrs;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const gr of r.resources) {
    if (gr.group !== attrs.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource && res.startsWith('*/') && subresource === res.slice(2)) return true;
      if (res.endsWith('/*') && resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}

const strings = z.array(z.string()).nullish();
const ruleSchema = z.object({
  level: z.string().nullish(),
  users: strings,
  userGroups: strings,
  verbs: strings,
  resources: z.array(z.object({ group: z.string().nullish(), resources: strings, resourceNames: strings })).nullish(),
  namespaces: strings,
  nonResourceURLs: strings,
  omitStages: strings,
  omitManagedFields: z.boolean().nullish(),
});
const policySchema = z.object({
  apiVersion: z.string().nullish(),
  kind: z.string().nullish(),
  rules: z.array(ruleSchema).nullish(),
  omitStages: strings,
  omitManagedFields: z.boolean().nullish(),
});

/** A Go `%#v` of a string slice, as upstream's field errors print one. */
const goStrings = (items: readonly string[]) => `[]string{${items.map((i) => JSON.stringify(i)).join(', ')}}`;

/**
 * Parse and validate a policy document (YAML, of which JSON is a subset). `warn` receives
 * deprecation notices. Throws PolicyError with upstream's messages: `failed decoding: ...`,
 * `unknown group version field ...`, the field errors of ValidatePolicy (one, or `[e1, e2]`),
 * `loaded illegal policy with 0 rules`.
 */
export function parsePolicy(text: string, warn: (message: string) => void = () => {}): Policy {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new PolicyError(`failed decoding: ${errorMessage(err)}`);
  }
  const parsed = policySchema.safeParse(doc ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PolicyError(`failed decoding: ${fieldPath(issue.path)}: ${issue.message}`);
  }
  const raw = parsed.data;
  if (!raw.kind) throw new PolicyError("failed decoding: Object 'Kind' is missing");
  if (raw.kind !== 'Policy' || !GROUP_VERSIONS.includes(raw.apiVersion ?? '')) {
    throw new PolicyError(`unknown group version field ${raw.apiVersion ?? ''}, Kind=${raw.kind} in policy`);
  }
  if (raw.apiVersion !== 'audit.k8s.io/v1')
    warn(`"${raw.apiVersion}" is deprecated and will be removed in a future release, use "audit.k8s.io/v1" instead`);
  const errors: string[] = [...stageErrors(raw.omitStages ?? [], 'omitStages')];
  const rules = (raw.rules ?? []).map((r, i) => {
    const rule: PolicyRule = {
      level: (r.level ?? '') as Level,
      users: r.users ?? [],
      userGroups: r.userGroups ?? [],
      verbs: r.verbs ?? [],
      resources: (r.resources ?? []).map((g) => ({
        group: g.group ?? '',
        resources: g.resources ?? [],
        resourceNames: g.resourceNames ?? [],
      })),
      namespaces: r.namespaces ?? [],
      nonResourceURLs: r.nonResourceURLs ?? [],
      omitStages: (r.omitStages ?? []) as Stage[],
      ...(r.omitManagedFields === undefined || r.omitManagedFields === null
        ? {}
        : { omitManagedFields: r.omitManagedFields }),
    };
    errors.push(...ruleErrors(rule, `rules[${i}]`));
    return rule;
  });
  if (errors.length === 1) throw new PolicyError(errors[0]);
  if (errors.length > 1) throw new PolicyError(`[${errors.join(', ')}]`);
  if (rules.length === 0) throw new PolicyError('loaded illegal policy with 0 rules');
  return { rules, omitStages: (raw.omitStages ?? []) as Stage[], omitManagedFields: raw.omitManagedFields ?? false };
}

/**
 * Read and parse `--audit-policy-file`. Throws PolicyError worded as upstream:
 * `loading audit policy file: <reason>: from file <path>` (or `failed to read file path`).
 */
export async function loadPolicyFile(path: string, warn?: (message: string) => void): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new PolicyError(`loading audit policy file: failed to read file path "${path}": ${errorMessage(err)}`);
  }
  try {
    return parsePolicy(text, warn);
  } catch (err) {
    throw new PolicyError(`loading audit policy file: ${errorMessage(err)}: from file ${path}`);
  }
}

/** Upstream validatePolicyRule. */
function ruleErrors(rule: PolicyRule, path: string): string[] {
  const errors: string[] = [];
  if (!rule.level) errors.push(`${path}.level: Required value`);
  else if (!LEVELS.includes(rule.level))
    errors.push(
      `${path}.level: Unsupported value: ${JSON.stringify(rule.level)}: supported values: ${LEVELS.map((l) => `"${l}"`).join(', ')}`,
    );
  rule.nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/'))
      errors.push(
        `${path}.nonResourceURLs[${i}]: Invalid value: ${JSON.stringify(url)}: non-resource URL rules must begin with a '/' character`,
      );
    if (url !== '' && url.slice(0, -1).includes('*'))
      errors.push(
        `${path}.nonResourceURLs[${i}]: Invalid value: ${JSON.stringify(url)}: non-resource URL wildcards '*' must be the final character of the rule`,
      );
  });
  for (const gr of rule.resources) {
    const msgs = gr.group ? validateDns1123Subdomain(gr.group) : [];
    if (msgs.length)
      errors.push(`${path}.resources.group: Invalid value: ${JSON.stringify(gr.group)}: ${msgs.join(',')}`);
    if (gr.resourceNames.length && !gr.resources.length)
      errors.push(
        `${path}.resources.resourceNames: Invalid value: ${goStrings(gr.resourceNames)}: using resourceNames requires at least one resource`,
      );
  }
  errors.push(...stageErrors(rule.omitStages, `${path}.omitStages`));
  if (rule.nonResourceURLs.length && (rule.resources.length || rule.namespaces.length)) {
    errors.push(
      `${path}.nonResourceURLs: Invalid value: ${goStrings(rule.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`,
    );
  }
  return errors;
}

/** Upstream validateOmitStages. */
function stageErrors(stages: readonly string[], path: string): string[] {
  return stages.flatMap((s, i) =>
    STAGES.includes(s as Stage)
      ? []
      : [`${path}[${i}]: Invalid value: ${JSON.stringify(s)}: allowed stages are ${STAGES.join(',')}`],
  );
}

/** `rules[0].users` from zod's path segments. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || 'policy';
}
