/**
 * RBAC's matching of rules and subjects, as upstream (plugin/pkg/auth/authorizer/rbac/rbac.go
 * RuleAllows, pkg/apis/rbac/v1 helpers VerbMatches / APIGroupMatches / ResourceMatches /
 * ResourceNameMatches / NonResourceURLMatches, pkg/registry/rbac/validation/rule.go
 * appliesToUser).
 */
import type { WriterInfo } from '../../registry/access.js';
import type { PolicyRule, Subject } from '../../resources/rbac/rbac.schema.js';
import type { Attributes } from '../types.js';

const has = (list: readonly string[] | null | undefined, value: string): boolean =>
  list !== undefined && list !== null && list.includes(value);

/** True when `rule` allows the request `attrs`. */
export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!(has(rule.verbs, '*') || has(rule.verbs, attrs.verb))) return false;
  if (!attrs.isResourceRequest) return nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return (
    (has(rule.apiGroups, '*') || has(rule.apiGroups, attrs.apiGroup)) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    (!rule.resourceNames?.length || rule.resourceNames.includes(attrs.name))
  );
}

/** `*`, the resource (with `/subresource`), or `*\/subresource`. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource))
      return true;
  }
  return false;
}

/** `*`, the path, or a prefix ending in `*`. */
function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** The user name of a service account (upstream serviceaccount.MakeUsername). */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * True when `subject` names `user`. A ServiceAccount subject without a namespace means the
 * binding's own `namespace` (none for cluster bindings: then it matches nobody).
 */
export function appliesTo(user: WriterInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return subject.name !== undefined && subject.name !== null && user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || namespace;
      return ns !== '' && user.name === serviceAccountUsername(ns, subject.name ?? '');
    }
    default:
      return false;
  }
}
