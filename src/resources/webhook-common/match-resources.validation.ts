/**
 * Rules of the admission policy kinds' shared parts (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation, 1.33): validateMatchResources,
 * validateNamedRuleWithOperations, and Go's `%#v` of a list of a named string type, which
 * upstream prints as the invalid value of such a list. Selectors are checked strictly (these
 * types came after upstream issue 99139, so invalid label values were never accepted).
 */
import { validatePathSegmentName } from '../../api/names.js';
import { duplicate, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { validateLabelSelector } from '../jobs/selector.js';
import type { MatchResources, NamedRuleWithOperations } from './match-resources.schema.js';
import { validateRule } from './webhook.validation.js';

const MATCH_POLICIES = ['Equivalent', 'Exact'];

/**
 * A field.Invalid whose value is a Go slice, printed as `%#v` does: `[]<type>{"a", "b"}`
 * (`type` e.g. `string` or `admissionregistration.ValidationAction`).
 */
export function invalidGoList(field: string, type: string, values: readonly string[], detail: string): FieldError {
  const printed = `[]${type}{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
  return { ...invalidValue(field, '', detail), message: `Invalid value: ${printed}: ${detail}` };
}

/** validateNamedRuleWithOperations: resource names are path segments, once each; then the rule. */
function validateNamedRule(rule: NamedRuleWithOperations, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    const path = `${at}.resourceNames[${i}]`;
    for (const m of validatePathSegmentName(name)) errs.push(invalidValue(path, name, m));
    if (seen.has(name)) errs.push(duplicate(path, name));
    else seen.add(name);
  });
  return [...errs, ...validateRule(rule, at)];
}

/**
 * validateMatchResources at `at` (nothing for an absent one): matchPolicy and both selectors
 * are required (defaults fill them in), the selectors valid, every rule valid.
 */
export function validateMatchResources(mr: MatchResources | null | undefined, at: string): FieldError[] {
  if (!mr) return [];
  const errs: FieldError[] = [];
  if (mr.matchPolicy == null) errs.push(required(`${at}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(mr.matchPolicy))
    errs.push(notSupported(`${at}.matchPolicy`, mr.matchPolicy, MATCH_POLICIES));
  for (const sel of ['namespaceSelector', 'objectSelector'] as const) {
    const selector = mr[sel];
    if (selector == null) errs.push(required(`${at}.${sel}`));
    else errs.push(...validateLabelSelector(selector, `${at}.${sel}`));
  }
  for (const rules of ['resourceRules', 'excludeResourceRules'] as const)
    (mr[rules] ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, `${at}.${rules}[${i}]`)));
  return errs;
}

/** SetDefaults_MatchResources and SetDefaults_Rule of its rules (v1 defaults.go). */
export function defaultMatchResources(mr: MatchResources | null | undefined): void {
  if (!mr) return;
  mr.matchPolicy ??= 'Equivalent';
  mr.namespaceSelector ??= {};
  mr.objectSelector ??= {};
  for (const rule of [...(mr.resourceRules ?? []), ...(mr.excludeResourceRules ?? [])]) rule.scope ??= '*';
}
