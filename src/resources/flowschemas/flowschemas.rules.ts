/**
 * The rule and subject checks of a FlowSchema (k8s.io/kubernetes pkg/apis/flowcontrol/validation
 * validation.go, 1.33: ValidateFlowSchemaPolicyRulesWithSubjects, ValidateFlowSchemaSubject and
 * the subject kinds' checks, ValidateFlowSchemaResourcePolicyRule,
 * ValidateFlowSchemaNonResourcePolicyRule, ValidateNonResourceURLPath). Lists whose bad value
 * upstream prints are printed as Go's `%#v` of a `[]string`.
 */
import { validateDns1123Label, validateDns1123Subdomain } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo, notSupportedGo } from '../../api/validation/resources.js';
import type {
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  ResourcePolicyRule,
  Subject,
} from './flowschemas.schema.js';

/** The verbs a rule may name besides `*` (upstream supportedVerbs, sorted as sets.List does). */
export const SUPPORTED_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'proxy',
  'update',
  'watch',
] as const;
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'] as const;
const NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const hasWildcard = (items: readonly string[]) => items.includes('*');

/** ValidateFlowSchemaPolicyRulesWithSubjects for the rule at `path` (`spec.rules[i]`). */
export function validateRule(rule: PolicyRulesWithSubjects, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = rule.subjects ?? [];
  if (subjects.length) subjects.forEach((s, i) => errs.push(...validateSubject(s, `${path}.subjects[${i}]`)));
  else errs.push(required(`${path}.subjects`, 'subjects must contain at least one value'));
  const resourceRules = rule.resourceRules ?? [];
  const nonResourceRules = rule.nonResourceRules ?? [];
  if (!resourceRules.length && !nonResourceRules.length)
    errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(r, `${path}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(r, `${path}.nonResourceRules[${i}]`)));
  return errs;
}

/** ValidateFlowSchemaSubject: the member named by `kind` checked, the two others absent. */
function validateSubject(subject: Subject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const notUser = () =>
    subject.user && errs.push(forbidden(`${path}.user`, "user is forbidden when subject kind is not 'User'"));
  const notGroup = () =>
    subject.group && errs.push(forbidden(`${path}.group`, "group is forbidden when subject kind is not 'Group'"));
  const notServiceAccount = () =>
    subject.serviceAccount &&
    errs.push(
      forbidden(`${path}.serviceAccount`, "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"),
    );
  switch (subject.kind) {
    case 'ServiceAccount':
      errs.push(...validateServiceAccountSubject(subject.serviceAccount, `${path}.serviceAccount`));
      notUser();
      notGroup();
      break;
    case 'User':
      errs.push(...validateNamedSubject('user', subject.user, `${path}.user`));
      notServiceAccount();
      notGroup();
      break;
    case 'Group':
      errs.push(...validateNamedSubject('group', subject.group, `${path}.group`));
      notServiceAccount();
      notUser();
      break;
    default:
      errs.push(notSupported(`${path}.kind`, subject.kind, SUBJECT_KINDS));
  }
  return errs;
}

/** ValidateServiceAccountSubject: a namespace (DNS-1123 label) and a name (`*` or a DNS-1123 subdomain). */
function validateServiceAccountSubject(sa: Subject['serviceAccount'], path: string): FieldError[] {
  if (!sa) return [required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  const errs: FieldError[] = [];
  if (!sa.name) errs.push(required(`${path}.name`));
  else if (sa.name !== '*')
    for (const m of validateDns1123Subdomain(sa.name)) errs.push(invalidValue(`${path}.name`, sa.name, m));
  if (sa.namespace)
    for (const m of validateDns1123Label(sa.namespace)) errs.push(invalidValue(`${path}.namespace`, sa.namespace, m));
  else errs.push(required(`${path}.namespace`, 'must specify namespace for service account'));
  return errs;
}

/** ValidateUserSubject / ValidateGroupSubject: present, with a name. */
function validateNamedSubject(kind: 'user' | 'group', subject: { name: string } | null | undefined, path: string) {
  if (!subject)
    return [required(path, `${kind} is required when subject kind is '${kind === 'user' ? 'User' : 'Group'}'`)];
  return subject.name ? [] : [required(`${path}.name`)];
}

/** The verbs of a rule: at least one, `*` alone, else only supported verbs. */
function validateVerbs(verbs: readonly string[], path: string): FieldError[] {
  if (!verbs.length) return [required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs))
    return verbs.length > 1
      ? [invalidGo(path, goSlice('string', verbs), "if '*' is present, must not specify other verbs")]
      : [];
  const supported: readonly string[] = SUPPORTED_VERBS;
  return verbs.every((v) => supported.includes(v))
    ? []
    : [notSupportedGo(path, goSlice('string', verbs), SUPPORTED_VERBS)];
}

/** A list that must not be empty and holds `*` only alone (API groups, resources). */
function validateWildcardList(
  items: readonly string[],
  path: string,
  what: string,
  emptyMessage: string,
): FieldError[] {
  if (!items.length) return [required(path, emptyMessage)];
  return items.length > 1 && hasWildcard(items)
    ? [invalidGo(path, goSlice('string', items), `if '*' is present, must not specify other ${what}`)]
    : [];
}

/** ValidateFlowSchemaResourcePolicyRule. */
function validateResourceRule(rule: ResourcePolicyRule, path: string): FieldError[] {
  const errs = [
    ...validateVerbs(rule.verbs ?? [], `${path}.verbs`),
    ...validateWildcardList(
      rule.apiGroups ?? [],
      `${path}.apiGroups`,
      'api groups',
      'resource rules must supply at least one api group',
    ),
    ...validateWildcardList(
      rule.resources ?? [],
      `${path}.resources`,
      'resources',
      'resource rules must supply at least one resource',
    ),
  ];
  const namespaces = rule.namespaces ?? [];
  if (!namespaces.length && !rule.clusterScope)
    errs.push(
      required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'),
    );
  else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1)
      errs.push(
        invalidGo(
          `${path}.namespaces`,
          goSlice('string', namespaces),
          "if '*' is present, must not specify other namespaces",
        ),
      );
  } else
    namespaces.forEach((ns, i) => {
      for (const m of validateDns1123Label(ns))
        errs.push(invalidValue(`${path}.namespaces[${i}]`, ns, NAMESPACE_INTRO + m));
    });
  return errs;
}

/** ValidateFlowSchemaNonResourcePolicyRule. */
function validateNonResourceRule(rule: NonResourcePolicyRule, path: string): FieldError[] {
  const errs = validateVerbs(rule.verbs ?? [], `${path}.verbs`);
  const urls = rule.nonResourceURLs ?? [];
  if (!urls.length) errs.push(required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1)
      errs.push(
        invalidGo(
          `${path}.nonResourceURLs`,
          goSlice('string', urls),
          "if '*' is present, must not specify other non-resource URLs",
        ),
      );
  } else
    urls.forEach((url, i) => {
      const why = nonResourceUrlProblem(url);
      if (why) errs.push(invalidValue(`${path}.nonResourceURLs[${i}]`, url, why));
    });
  return errs;
}

/**
 * ValidateNonResourceURLPath: why `path` is not a URL pattern (`/`, or a path starting with
 * a slash, without white space or `//`, with at most one `*`, as its last segment), or ''.
 */
export function nonResourceUrlProblem(path: string): string {
  if (!path) return 'must not be empty';
  if (path === '/') return '';
  if (!path.startsWith('/')) return 'must start with slash';
  if (path.includes(' ')) return 'must not contain white-space';
  if (path.includes('//')) return 'must not contain double slash';
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return '';
}
