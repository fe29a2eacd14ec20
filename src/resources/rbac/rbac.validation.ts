/**
 * RBAC rules of upstream 1.10 pkg/apis/rbac/validation/validation.go (ValidateRole,
 * ValidateClusterRole, ValidatePolicyRule, ValidateRoleBinding, ValidateClusterRoleBinding,
 * ValidateRoleBindingSubject and the *Update variants) and the defaults of
 * pkg/apis/rbac/v1/defaults.go (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding,
 * SetDefaults_Subject). The ObjectMeta rules (path-segment names, namespace) are the store's.
 *
 * Our own group is accepted wherever upstream requires `rbac.authorization.k8s.io` (a roleRef's
 * and a User or Group subject's apiGroup); messages name upstream's group only, as upstream's.
 */
import { validateDns1123Subdomain, validatePathSegmentName } from '../../api/names.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { invalidGo } from '../../api/validation/resources.js';
import { goQuote } from '../../api/apply/go-format.js';
import { validateClusterRoleSelector } from './rbac-selector.validation.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  RoleRef,
  Subject,
} from './rbac.schema.js';

/** Upstream's RBAC group (rbac.GroupName), the default and the only one its messages name. */
export const RBAC_K8S_GROUP = 'rbac.authorization.k8s.io';
/** Our RBAC group, accepted as upstream's in roleRefs and subjects. */
export const RBAC_CK_GROUP = 'rbac.authorization.ck.io';
const RBAC_GROUPS: readonly string[] = [RBAC_K8S_GROUP, RBAC_CK_GROUP];

const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

type Binding = RoleBinding | ClusterRoleBinding;

const len = (v: readonly unknown[] | null | undefined): number => v?.length ?? 0;
const text = (v: string | null | undefined): string => v ?? '';

/** Go's `%#v` of a []string: `[]string{"a", "b"}`, `[]string(nil)` when absent. */
function goStrings(values: readonly string[] | null | undefined): string {
  return values ? `[]string{${values.map(goQuote).join(', ')}}` : '[]string(nil)';
}

/** Go's `%#v` of the internal RoleRef: `rbac.RoleRef{APIGroup:"…", Kind:"…", Name:"…"}`. */
function goRoleRef(ref: RoleRef | null | undefined): string {
  return `rbac.RoleRef{APIGroup:${goQuote(text(ref?.apiGroup))}, Kind:${goQuote(text(ref?.kind))}, Name:${goQuote(text(ref?.name))}}`;
}

/**
 * Upstream SetDefaults_RoleBinding / SetDefaults_ClusterRoleBinding and SetDefaults_Subject:
 * an empty roleRef.apiGroup becomes `rbac.authorization.k8s.io` (roleRef is a struct upstream,
 * so it exists after decoding), and so does the empty apiGroup of a User or Group subject (a
 * ServiceAccount's stays "").
 */
export function defaultBinding(obj: Binding): void {
  obj.roleRef = { ...(obj.roleRef ?? {}) };
  if (!obj.roleRef.apiGroup) obj.roleRef.apiGroup = RBAC_K8S_GROUP;
  for (const subject of obj.subjects ?? []) {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_K8S_GROUP;
  }
}

/**
 * Upstream ValidatePolicyRule: at least one verb; a rule with nonResourceURLs is only allowed
 * in a ClusterRole (`namespaced` false) and may not also name apiGroups, resources or
 * resourceNames; any other rule needs at least one apiGroup and one resource. `path` is the
 * rule's (`rules[0]`).
 */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    const urls = goStrings(rule.nonResourceURLs);
    if (namespaced)
      errs.push(invalidGo(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(
        invalidGo(
          `${path}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0)
    errs.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0)
    errs.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(rules: readonly PolicyRule[] | null | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

/** Upstream ValidateRole: each rule by ValidatePolicyRule, namespaced (no nonResourceURLs). */
export function validateRole(role: Role): FieldError[] {
  return validateRules(role.rules, true);
}

/**
 * Upstream ValidateClusterRole: each rule by ValidatePolicyRule (nonResourceURLs allowed);
 * an aggregationRule, when set, needs at least one clusterRoleSelector
 * (`Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`),
 * each a valid label selector (see rbac-selector.validation.ts).
 */
export function validateClusterRole(role: ClusterRole): FieldError[] {
  const errs = validateRules(role.rules, false);
  const aggregation = role.aggregationRule;
  if (aggregation) {
    const path = 'aggregationRule.clusterRoleSelectors';
    const selectors = aggregation.clusterRoleSelectors ?? [];
    if (selectors.length === 0)
      errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((selector, i) => errs.push(...validateClusterRoleSelector(selector, `${path}[${i}]`)));
  }
  return errs;
}

/**
 * Upstream ValidateRoleBindingSubject: a name is required; a ServiceAccount's name is a DNS-1123
 * subdomain (ValidateServiceAccountName), its apiGroup "" and, in a ClusterRoleBinding
 * (`namespaced` false), its namespace required; a User's or Group's apiGroup is
 * rbac.authorization.k8s.io (or ours); any other kind is not supported.
 */
export function validateSubject(subject: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(subject.name);
  const apiGroup = text(subject.apiGroup);
  if (name.length === 0) errs.push(required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name.length > 0)
        for (const m of validateDns1123Subdomain(name)) errs.push(invalidValue(`${path}.name`, name, m));
      if (apiGroup.length > 0) errs.push(notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && text(subject.namespace).length === 0) errs.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (!RBAC_GROUPS.includes(apiGroup)) errs.push(notSupported(`${path}.apiGroup`, apiGroup, [RBAC_K8S_GROUP]));
      break;
    default:
      errs.push(notSupported(`${path}.kind`, text(subject.kind), SUBJECT_KINDS));
  }
  return errs;
}

/** The roleRef and subject rules shared by both binding kinds; `kinds` are the roleRef kinds allowed. */
function validateBinding(obj: Binding, namespaced: boolean, kinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj.roleRef;
  const apiGroup = text(ref?.apiGroup);
  if (!RBAC_GROUPS.includes(apiGroup)) errs.push(notSupported('roleRef.apiGroup', apiGroup, [RBAC_K8S_GROUP]));
  const kind = text(ref?.kind);
  if (!kinds.includes(kind)) errs.push(notSupported('roleRef.kind', kind, kinds));
  const name = text(ref?.name);
  if (name.length === 0) errs.push(required('roleRef.name'));
  else for (const m of validatePathSegmentName(name)) errs.push(invalidValue('roleRef.name', name, m));
  (obj.subjects ?? []).forEach((subject, i) => errs.push(...validateSubject(subject, namespaced, `subjects[${i}]`)));
  return errs;
}

/**
 * Upstream ValidateRoleBinding: roleRef.apiGroup rbac.authorization.k8s.io (or ours),
 * roleRef.kind Role or ClusterRole, roleRef.name required and a path segment name, and each
 * subject by ValidateRoleBindingSubject (namespace optional).
 */
export function validateRoleBinding(obj: RoleBinding): FieldError[] {
  return validateBinding(obj, true, ['Role', 'ClusterRole']);
}

/** Upstream ValidateClusterRoleBinding: as a RoleBinding, but roleRef.kind only ClusterRole and ServiceAccount subjects need a namespace. */
export function validateClusterRoleBinding(obj: ClusterRoleBinding): FieldError[] {
  return validateBinding(obj, false, ['ClusterRole']);
}

/**
 * The roleRef part of upstream ValidateRoleBindingUpdate / ValidateClusterRoleBindingUpdate:
 * `roleRef: Invalid value: rbac.RoleRef{…}: cannot change roleRef` when any of its fields
 * differs from the stored one.
 */
export function validateRoleRefUnchanged(obj: Binding, old: Binding): FieldError[] {
  const same = (['apiGroup', 'kind', 'name'] as const).every((f) => text(obj.roleRef?.[f]) === text(old.roleRef?.[f]));
  return same ? [] : [invalidGo('roleRef', goRoleRef(obj.roleRef), 'cannot change roleRef')];
}
