/**
 * IngressClass rules of today's upstream pkg/apis/networking/validation (ValidateIngressClass,
 * validateIngressClassSpec, validateIngressClassParametersReference,
 * ValidateIngressClassUpdate: the controller is immutable) and apimachinery's
 * IsDomainPrefixedPath for the controller.
 */
import { validateDns1123Label, validateDns1123Subdomain, validatePathSegmentName } from '../../api/names.js';
import { regexError } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import type { IngressClass } from './ingressclasses.schema.js';

const MAX_CONTROLLER = 250;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const SCOPES = ['Cluster', 'Namespace'];

/** `messages` as Invalid errors of `value` at `field`. */
const each = (field: string, value: unknown, messages: string[]) => messages.map((m) => invalidValue(field, value, m));

/** Upstream IsDomainPrefixedPath (`acme.io/foo`). */
function domainPrefixedPath(field: string, value: string): FieldError[] {
  if (!value) return [required(field)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || !host || !path)
    return [invalidValue(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = each(field, host, validateDns1123Subdomain(host));
  if (!new RegExp(`^${HTTP_PATH_FMT}$`).test(path))
    errs.push(invalidValue(field, path, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/** Upstream validateIngressClassParametersReference. */
function validateParameters(p: NonNullable<NonNullable<IngressClass['spec']>['parameters']>): FieldError[] {
  const at = 'spec.parameters';
  const errs: FieldError[] = [];
  if (typeof p.apiGroup === 'string')
    errs.push(...each(`${at}.apiGroup`, p.apiGroup, validateDns1123Subdomain(p.apiGroup)));
  if (!p.kind) errs.push(required(`${at}.kind`));
  else errs.push(...each(`${at}.kind`, p.kind, validatePathSegmentName(p.kind)));
  if (!p.name) errs.push(required(`${at}.name`));
  else errs.push(...each(`${at}.name`, p.name, validatePathSegmentName(p.name)));
  if (typeof p.scope !== 'string') return [...errs, required(`${at}.scope`)];
  if (!SCOPES.includes(p.scope)) return [...errs, notSupported(`${at}.scope`, p.scope, SCOPES)];
  const namespace = p.namespace;
  if (p.scope === 'Namespace') {
    if (typeof namespace !== 'string')
      errs.push(required(`${at}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...each(`${at}.namespace`, namespace, validateDns1123Label(namespace)));
  }
  if (p.scope === 'Cluster' && typeof namespace === 'string')
    errs.push(forbidden(`${at}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

/** Upstream ValidateIngressClass (metadata rules are the store's). */
export function validateIngressClass(ic: IngressClass): FieldError[] {
  const spec = ic.spec ?? {};
  const controller = spec.controller ?? '';
  const errs: FieldError[] = [];
  if (!controller) errs.push(required('spec.controller'));
  else {
    if (Buffer.byteLength(controller) > MAX_CONTROLLER)
      errs.push({
        reason: 'FieldValueTooLong',
        field: 'spec.controller',
        message: `Too long: may not be more than ${MAX_CONTROLLER} bytes`,
      });
    errs.push(...domainPrefixedPath('spec.controller', controller));
  }
  if (spec.parameters) errs.push(...validateParameters(spec.parameters));
  return errs;
}

/** Upstream ValidateIngressClassUpdate: the controller is immutable, then the rules of a new class. */
export function validateIngressClassUpdate(ic: IngressClass, old: IngressClass): FieldError[] {
  const controller = ic.spec?.controller ?? '';
  const immutable =
    controller !== (old.spec?.controller ?? '')
      ? [invalidValue('spec.controller', controller, 'field is immutable')]
      : [];
  return [...immutable, ...validateIngressClass(ic)];
}
