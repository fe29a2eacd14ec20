/**
 * Whether one set of rules grants everything another does (upstream
 * pkg/registry/rbac/validation/policy_comparator.go Covers, BreakdownRule, ruleCovers): the
 * other rules are broken into one rule per group, resource, verb (and name, or URL and verb)
 * and each piece must be covered by some owned rule.
 */
import type { PolicyRule } from '../../resources/rbac/rbac.schema.js';

const has = (set: readonly string[] | null | undefined, v: string) => (set ?? []).includes(v);
const hasAll = (set: readonly string[] | null | undefined, vs: readonly string[] | null | undefined) =>
  (vs ?? []).every((v) => has(set, v));

/** The rules of `servant` that no rule of `owner` covers, broken down ([] = covered). */
export function uncovered(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdown).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** One rule per (group, resource, verb[, name]) and per (URL, verb), as upstream BreakdownRule. */
export function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length)
          for (const name of rule.resourceNames)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const names =
    !owner.resourceNames?.length ||
    (sub.resourceNames?.length ? hasAll(owner.resourceNames, sub.resourceNames) : false);
  return (
    verbs &&
    groups &&
    resourcesCover(owner.resources, sub.resources ?? []) &&
    names &&
    urlsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? [])
  );
}

function resourcesCover(set: readonly string[] | null | undefined, covers: readonly string[]): boolean {
  if (has(set, '*') || hasAll(set, covers)) return true;
  return covers.every((path) => {
    if (has(set, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(set, `*/${path.slice(slash + 1)}`);
  });
}

function urlsCover(set: readonly string[], covers: readonly string[]): boolean {
  return covers.every((path) =>
    set.some((owner) => owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')))),
  );
}

/**
 * A rule as upstream's CompactString prints it, lists as Go's `%q` prints a []string:
 * `{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`.
 */
export function compactRule(rule: PolicyRule): string {
  const q = (list: readonly string[]) => `[${list.map((v) => JSON.stringify(v)).join(' ')}]`;
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${q(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${q(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${q(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${q(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * Rules of one group, one resource and at most one name that differ only by verb, merged into
 * one rule with all their verbs; other rules as they are (upstream validation.CompactRules, used
 * on the broken-down missing rules of an escalation).
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<
    string,
    { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }
  >();
  for (const rule of rules) {
    const isSimple =
      (rule.resourceNames?.length ?? 0) <= 1 &&
      !rule.nonResourceURLs?.length &&
      rule.apiGroups?.length === 1 &&
      rule.resources?.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? []]);
    const seen = simple.get(key);
    if (seen) seen.verbs.push(...(rule.verbs ?? []));
    else
      simple.set(key, {
        apiGroups: rule.apiGroups!,
        resources: rule.resources!,
        ...(rule.resourceNames?.length ? { resourceNames: rule.resourceNames } : {}),
        verbs: [...(rule.verbs ?? [])],
      });
  }
  return [...out, ...simple.values()];
}
