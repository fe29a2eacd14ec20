/**
 * ValidatingAdmissionPolicy rules of k8s.io/kubernetes pkg/apis/admissionregistration/validation
 * (1.33): ValidateValidatingAdmissionPolicy, validateValidatingAdmissionPolicySpec,
 * validateParamKind, validateMatchConditions, validateVariable, validateValidation,
 * validateAuditAnnotation, and ValidateValidatingAdmissionPolicyUpdate (the same rules; match
 * conditions are not checked again when paramKind and the conditions are unchanged, and the
 * stored expressions compile in the stored environment). Metadata rules are the registry's.
 * Errors come in upstream's order, compile errors (validatingadmissionpolicies.expressions.ts)
 * at their expression.
 */
import { isDeepStrictEqual } from 'node:util';
import { validateDns1035Label, validateDns1123Subdomain, validateQualifiedName } from '../../api/names.js';
import {
  duplicate,
  invalidValue,
  notSupported,
  required,
  tooMany,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { validateMatchResources } from '../webhook-common/match-resources.validation.js';
import {
  MAX_AUDIT_VALUE_EXPRESSION,
  NO_PREEXISTING,
  policyCompiler,
  preexistingOf,
  type PolicyCompiler,
  type PreexistingExpressions,
} from './validatingadmissionpolicies.expressions.js';
import type {
  PolicyAuditAnnotation,
  PolicySpec,
  PolicyValidation,
  ValidatingAdmissionPolicy,
} from './validatingadmissionpolicies.schema.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const CEL_RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);
const NEWLINES = /[\n\r]+/;

interface Options {
  readonly checkMatchConditions: boolean;
  readonly old: PreexistingExpressions;
}

/** validateParamKind: apiVersion `group/version` (group a DNS subdomain, version a DNS-1035 label), kind a DNS-1035 label in lower case. */
function validateParamKind(pk: NonNullable<PolicySpec['paramKind']>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = pk.apiVersion ?? '';
  if (!apiVersion) errs.push(required(`${at}.apiVersion`));
  else if ((apiVersion.match(/\//g) ?? []).length > 1)
    errs.push(invalidValue(`${at}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  else if (apiVersion !== '/') {
    const slash = apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    const groupErrs = group ? validateDns1123Subdomain(group) : [];
    if (groupErrs.length) errs.push(invalidValue(`${at}.apiVersion`, group, groupErrs.join(',')));
    if (!version) errs.push(invalidValue(`${at}.apiVersion`, apiVersion, 'version must be specified'));
    else {
      const versionErrs = validateDns1035Label(version);
      if (versionErrs.length) errs.push(invalidValue(`${at}.apiVersion`, version, versionErrs.join(',')));
    }
  } else errs.push(invalidValue(`${at}.apiVersion`, apiVersion, 'version must be specified'));
  const kind = pk.kind ?? '';
  if (!kind) errs.push(required(`${at}.kind`));
  else {
    const kindErrs = validateDns1035Label(kind.toLowerCase());
    if (kindErrs.length)
      errs.push(
        invalidValue(`${at}.kind`, kind, `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`),
      );
  }
  return errs;
}

/** validateMatchConditions with the expressions compiled. */
function validateMatchConditions(spec: PolicySpec, cel: PolicyCompiler): FieldError[] {
  const conditions = spec.matchConditions ?? [];
  const errs: FieldError[] = [];
  if (conditions.length > 64) errs.push(tooMany('spec.matchConditions', conditions.length, 64));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = `spec.matchConditions[${i}]`;
    const trimmed = c.expression.trim();
    if (!trimmed) errs.push(required(`${at}.expression`));
    else errs.push(...cel.matchCondition(`${at}.expression`, trimmed));
    if (!c.name) errs.push(required(`${at}.name`));
    else for (const m of validateQualifiedName(c.name)) errs.push(invalidValue(`${at}.name`, c.name, m));
    if (c.name) {
      if (names.has(c.name)) errs.push(duplicate(`${at}.name`, c.name));
      else names.add(c.name);
    }
  });
  return errs;
}

/** validateVariable (a CEL identifier that is no reserved word; an expression). */
function validateVariables(spec: PolicySpec, cel: PolicyCompiler): FieldError[] {
  const errs: FieldError[] = [];
  (spec.variables ?? []).forEach((v, i) => {
    const at = `spec.variables[${i}]`;
    if (!v.name.trim()) errs.push(required(`${at}.name`, 'name is not specified'));
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(v.name) || CEL_RESERVED.has(v.name))
      errs.push(invalidValue(`${at}.name`, v.name, 'name is not a valid CEL identifier'));
    if (!v.expression.trim()) errs.push(required(`${at}.expression`, 'expression is not specified'));
    else errs.push(...cel.variable(`${at}.expression`, v.name, v.expression));
  });
  return errs;
}

/** validateValidation. */
function validateValidation(v: PolicyValidation, at: string, cel: PolicyCompiler): FieldError[] {
  const errs: FieldError[] = [];
  if (!v.expression.trim()) errs.push(required(`${at}.expression`, 'expression is not specified'));
  else errs.push(...cel.validation(`${at}.expression`, v.expression));
  const messageExpression = v.messageExpression ?? '';
  if (messageExpression && !messageExpression.trim())
    errs.push(invalidValue(`${at}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim()) errs.push(...cel.message(`${at}.messageExpression`, messageExpression));
  const message = v.message ?? '';
  if (message && !message.trim())
    errs.push(invalidValue(`${at}.message`, message, 'message must be non-empty if specified'));
  else if (NEWLINES.test(message.trim()))
    errs.push(invalidValue(`${at}.message`, message, 'message must not contain line breaks'));
  if (v.reason != null && !REASONS.includes(v.reason)) errs.push(notSupported(`${at}.reason`, v.reason, REASONS));
  return errs;
}

/** validateAuditAnnotation: `<policy name>/<key>` a qualified name; a valueExpression of at most 5 KiB that compiles. */
function validateAuditAnnotation(
  a: PolicyAuditAnnotation,
  policyName: string,
  at: string,
  cel: PolicyCompiler,
): FieldError[] {
  const errs: FieldError[] = [];
  if (policyName)
    for (const m of validateQualifiedName(`${policyName}/${a.key}`))
      errs.push(invalidValue(`${at}.key`, `${policyName}/${a.key}`, m));
  else errs.push(invalidValue(`${at}.key`, a.key, 'requires metadata.name be non-empty'));
  const trimmed = a.valueExpression.trim();
  if (!trimmed) errs.push(required(`${at}.valueExpression`, 'valueExpression is not specified'));
  else if (Buffer.byteLength(trimmed) > MAX_AUDIT_VALUE_EXPRESSION)
    errs.push(required(`${at}.valueExpression`, `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION} bytes in length`));
  else errs.push(...cel.auditValue(`${at}.valueExpression`, trimmed, a.valueExpression));
  return errs;
}

/** Go's `%#v` of a []AuditAnnotation, as upstream prints the list it finds too long. */
const goAuditAnnotations = (list: readonly PolicyAuditAnnotation[]) =>
  `[]admissionregistration.AuditAnnotation{${list
    .map(
      (a) =>
        `admissionregistration.AuditAnnotation{Key:${JSON.stringify(a.key)}, ValueExpression:${JSON.stringify(a.valueExpression)}}`,
    )
    .join(', ')}}`;

/** validateValidatingAdmissionPolicySpec. */
function validateSpec(policy: ValidatingAdmissionPolicy, opts: Options): FieldError[] {
  const spec: PolicySpec = policy.spec ?? {};
  const cel = policyCompiler(spec.paramKind != null, opts.old);
  const errs: FieldError[] = [];
  if (spec.failurePolicy == null) errs.push(required('spec.failurePolicy'));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy))
    errs.push(notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (spec.paramKind) errs.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (!spec.matchConstraints) errs.push(required('spec.matchConstraints'));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    // At least one resource rule, which gives the expressions their types.
    if (!(spec.matchConstraints.resourceRules ?? []).length) errs.push(required('spec.matchConstraints.resourceRules'));
  }
  if (opts.checkMatchConditions) errs.push(...validateMatchConditions(spec, cel));
  errs.push(...validateVariables(spec, cel));
  const validations = spec.validations ?? [];
  const annotations = spec.auditAnnotations ?? [];
  if (!validations.length && !annotations.length) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    return [...errs, required('spec.validations', detail), required('spec.auditAnnotations', detail)];
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, `spec.validations[${i}]`, cel)));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS)
    errs.push({
      ...invalidValue('spec.auditAnnotations', '', ''),
      message: `Invalid value: ${goAuditAnnotations(annotations)}: must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`,
    });
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const at = `spec.auditAnnotations[${i}]`;
    errs.push(...validateAuditAnnotation(a, policy.metadata.name ?? '', at, cel));
    if (keys.has(a.key)) errs.push(duplicate(`${at}.key`, a.key));
    keys.add(a.key);
  });
  return errs;
}

/** ValidateValidatingAdmissionPolicy (the strategy's Validate). */
export function validatePolicy(policy: ValidatingAdmissionPolicy): FieldError[] {
  return validateSpec(policy, { checkMatchConditions: true, old: NO_PREEXISTING });
}

/** ValidateValidatingAdmissionPolicyUpdate (the strategy's ValidateUpdate). */
export function validatePolicyUpdate(policy: ValidatingAdmissionPolicy, old: ValidatingAdmissionPolicy): FieldError[] {
  const same = (f: 'paramKind' | 'matchConditions') =>
    isDeepStrictEqual(policy.spec?.[f] ?? null, old.spec?.[f] ?? null);
  return validateSpec(policy, {
    checkMatchConditions: !(same('paramKind') && same('matchConditions')),
    old: preexistingOf(old.spec),
  });
}
