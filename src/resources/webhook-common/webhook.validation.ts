/**
 * Webhook configuration rules of upstream pkg/apis/admissionregistration/validation
 * (validateValidatingWebhookConfiguration, validateMutatingWebhookConfiguration, their webhooks,
 * validateRuleWithOperations, validateRule, validateResources, validateAdmissionReviewVersions,
 * validateMatchConditions; k8s.io/apiserver pkg/util/webhook ValidateWebhookURL and
 * ValidateWebhookService). A create through v1beta1 has 1.21's options: any side-effect class,
 * webhook names need not be unique. An update requires only what the stored object already
 * met (upstream's ...Update options). Match condition expressions are not compiled (no CEL here).
 */
import { validateDns1035Label, validateDns1123Subdomain, validateQualifiedName } from '../../api/names.js';
import { isValidPortNum } from '../../api/validation/network.js';
import { compileAdmissionExpression } from '../../api/cel/admission/index.js';
import {
  duplicate,
  internal,
  invalidValue,
  notSupported,
  required,
  tooMany,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { hasInvalidLabelValue, validateLabelSelector } from '../jobs/selector.js';
import type { Webhook, WebhookConfiguration, WebhookRule } from './webhook.schema.js';

export interface WebhookOptions {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  /** Match condition expressions the stored configuration has: compiled in the stored environment. */
  preexistingMatchConditions?: ReadonlySet<string>;
}

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** Go's `%#v` of a []string, as upstream prints a list given as an invalid value. */
const goStrings = (values: readonly string[]) => `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
const invalidList = (field: string, values: readonly string[], detail: string): FieldError => ({
  ...invalidValue(field, '', detail),
  message: `Invalid value: ${goStrings(values)}: ${detail}`,
});

/** IsFullyQualifiedName. */
function fullyQualifiedName(field: string, name: string): FieldError[] {
  if (!name) return [required(field)];
  const errs = validateDns1123Subdomain(name);
  if (errs.length) return [invalidValue(field, name, errs.join(','))];
  if (name.split('.').length < 3)
    return [invalidValue(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** validateResources (subresources allowed). */
function validateResources(resources: readonly string[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!resources.length) errs.push(required(field));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (!resSub) return void errs.push(required(`${field}[${i}]`));
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) return void (withoutSub = resSub !== '*');
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSub.has(res))
      errs.push(invalidValue(`${field}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub))
      errs.push(invalidValue(`${field}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard)
    errs.push(invalidList(field, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub)
    errs.push(
      invalidList(field, resources, "if '*' is present, must not specify other resources without subresources"),
    );
  return errs;
}

/** validateRuleWithOperations and validateRule (subresources allowed); `at` is the rule's path. */
export function validateRule(rule: WebhookRule, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (!ops.length) errs.push(required(`${at}.operations`));
  if (ops.length > 1 && ops.includes('*'))
    errs.push(invalidList(`${at}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(`${at}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = rule.apiGroups ?? [];
  if (!groups.length) errs.push(required(`${at}.apiGroups`));
  if (groups.length > 1 && groups.includes('*'))
    errs.push(invalidList(`${at}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (!versions.length) errs.push(required(`${at}.apiVersions`));
  if (versions.length > 1 && versions.includes('*'))
    errs.push(invalidList(`${at}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (!v) errs.push(required(`${at}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(rule.resources ?? [], `${at}.resources`));
  if (rule.scope != null && !SCOPES.includes(rule.scope)) errs.push(notSupported(`${at}.scope`, rule.scope, SCOPES));
  return errs;
}

/** The parts of a URL as Go's url.Parse splits them, or null when it refuses it (control characters, bad escapes). */
function goUrl(url: string): { scheme: string; user: string; host: string; query: string; fragment: string } | null {
  if ([...url].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) || /%(?![0-9A-Fa-f]{2})/.test(url))
    return null;
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(url);
  if (!m) return null;
  const authority = m[2] ?? '';
  const at = authority.lastIndexOf('@');
  return {
    scheme: (m[1] ?? '').toLowerCase(),
    user: at < 0 ? '' : authority.slice(0, at),
    host: at < 0 ? authority : authority.slice(at + 1),
    query: m[4] ?? '',
    fragment: m[5] ?? '',
  };
}

/** ValidateWebhookURL (https forced). */
function validateUrl(field: string, url: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = goUrl(url);
  if (!u) return [required(field, `url must be a valid URL: parse ${JSON.stringify(url)}: invalid URL${form}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalidValue(field, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) errs.push(invalidValue(field, u.host, `host must be specified${form}`));
  if (u.user) errs.push(invalidValue(field, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(invalidValue(field, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query) errs.push(invalidValue(field, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService. */
function validateService(field: string, svc: NonNullable<Webhook['clientConfig']['service']>): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(required(`${field}.name`));
  if (!svc.namespace) errs.push(required(`${field}.namespace`));
  const port = svc.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalidValue(`${field}.port`, port, `port is not valid: ${portErrs.join(', ')}`));
  const path = svc.path;
  if (path == null || path === '/' || path === '') return errs;
  if (path === '//') return [...errs, invalidValue(`${field}.path`, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalidValue(`${field}.path`, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) return void errs.push(invalidValue(`${field}.path`, path, `segment[${i}] may not be empty`));
    for (const m of validateDns1123Subdomain(step))
      errs.push(invalidValue(`${field}.path`, path, `segment[${i}]: ${m}`));
  });
  return errs;
}

/**
 * validateMatchConditions: names, and each trimmed expression compiled as a bool with
 * `authorizer` (validateMatchConditionsExpression, convertCELErrorToValidationError).
 */
function validateMatchConditions(
  conditions: NonNullable<Webhook['matchConditions']>,
  at: string,
  preexisting: ReadonlySet<string>,
): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > 64) errs.push(tooMany(at, conditions.length, 64));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const trimmed = c.expression.trim();
    if (!trimmed) errs.push(required(`${at}[${i}].expression`));
    else {
      const env = preexisting.has(trimmed) ? 'stored' : 'new';
      const { error } = compileAdmissionExpression(trimmed, ['bool'], { hasParams: false, hasAuthorizer: true, env });
      if (error)
        errs.push(
          error.type === 'Invalid'
            ? invalidValue(`${at}[${i}].expression`, trimmed, error.detail)
            : internal(`${at}[${i}].expression`, error.detail),
        );
    }
    if (!c.name) errs.push(required(`${at}[${i}].name`));
    else for (const m of validateQualifiedName(c.name)) errs.push(invalidValue(`${at}[${i}].name`, c.name, m));
    if (c.name) {
      if (names.has(c.name)) errs.push(duplicate(`${at}[${i}].name`, c.name));
      names.add(c.name);
    }
  });
  return errs;
}

/** validateValidatingWebhook / validateMutatingWebhook. */
function validateWebhook(hook: Webhook, at: string, opts: WebhookOptions): FieldError[] {
  const errs = fullyQualifiedName(`${at}.name`, hook.name);
  (hook.rules ?? []).forEach((r, i) => errs.push(...validateRule(r, `${at}.rules[${i}]`)));
  if (hook.failurePolicy != null && !FAILURE_POLICIES.includes(hook.failurePolicy))
    errs.push(notSupported(`${at}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy != null && !MATCH_POLICIES.includes(hook.matchPolicy))
    errs.push(notSupported(`${at}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  const sideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (hook.sideEffects == null)
    errs.push(required(`${at}.sideEffects`, `must specify one of ${sideEffects.join(', ')}`));
  else if (!sideEffects.includes(hook.sideEffects))
    errs.push(notSupported(`${at}.sideEffects`, hook.sideEffects, sideEffects));
  if (hook.timeoutSeconds != null && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1))
    errs.push(
      invalidValue(`${at}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'),
    );
  for (const sel of ['namespaceSelector', 'objectSelector'] as const)
    if (hook[sel])
      errs.push(...validateLabelSelector(hook[sel], `${at}.${sel}`, opts.allowInvalidLabelValueInSelector));
  if (hook.reinvocationPolicy != null && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy))
    errs.push(notSupported(`${at}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  const cc = hook.clientConfig;
  if ((cc.url == null) === (cc.service == null))
    errs.push(required(`${at}.clientConfig`, 'exactly one of url or service is required'));
  else if (cc.url != null) errs.push(...validateUrl(`${at}.clientConfig.url`, cc.url));
  else if (cc.service) errs.push(...validateService(`${at}.clientConfig.service`, cc.service));
  errs.push(
    ...validateMatchConditions(
      hook.matchConditions ?? [],
      `${at}.matchConditions`,
      opts.preexistingMatchConditions ?? new Set(),
    ),
  );
  return errs;
}

/** validateAdmissionReviewVersions. */
function validateReviewVersions(versions: readonly string[], at: string, requireRecognized: boolean): FieldError[] {
  if (!versions.length) return [required(at, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(invalidValue(`${at}[${i}]`, v, 'duplicate version'));
    seen.add(v);
    for (const m of validateDns1035Label(v)) errs.push(invalidValue(`${at}[${i}]`, v, m));
  });
  if (requireRecognized && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)))
    errs.push(invalidList(at, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** validate{Validating,Mutating}WebhookConfiguration (metadata rules are the registry's). */
export function validateWebhookConfiguration(obj: WebhookConfiguration, opts: WebhookOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (obj.webhooks ?? []).forEach((hook, i) => {
    const at = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, at, opts));
    errs.push(
      ...validateReviewVersions(
        hook.admissionReviewVersions ?? [],
        `${at}.admissionReviewVersions`,
        opts.requireRecognizedAdmissionReviewVersion,
      ),
    );
    if (opts.requireUniqueWebhookNames && hook.name) {
      if (names.has(hook.name)) errs.push(duplicate(`${at}.name`, hook.name));
      else names.add(hook.name);
    }
  });
  return errs;
}

/** The options of a create through `version` (1.21's: v1beta1 tolerates side effects and repeated names). */
export function createOptions(version: 'v1' | 'v1beta1'): WebhookOptions {
  const v1 = version === 'v1';
  return {
    requireNoSideEffects: v1,
    requireRecognizedAdmissionReviewVersion: true,
    requireUniqueWebhookNames: v1,
    allowInvalidLabelValueInSelector: false,
  };
}

/** The options of an update: only what the stored webhooks already meet (the ...Update functions). */
export function updateOptions(old: WebhookConfiguration): WebhookOptions {
  const hooks = old.webhooks ?? [];
  const names = hooks.map((h) => h.name);
  return {
    requireNoSideEffects: hooks.every((h) => h.sideEffects != null && NO_SIDE_EFFECTS.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: hooks.every((h) => {
      const vs = h.admissionReviewVersions ?? [];
      return !vs.length || vs.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: hooks.some(
      (h) => hasInvalidLabelValue(h.namespaceSelector) || hasInvalidLabelValue(h.objectSelector),
    ),
    preexistingMatchConditions: new Set(hooks.flatMap((h) => (h.matchConditions ?? []).map((c) => c.expression))),
  };
}
