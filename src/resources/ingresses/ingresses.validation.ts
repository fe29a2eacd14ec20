/**
 * Ingress rules of today's upstream pkg/apis/networking/validation (ValidateIngressCreate,
 * ValidateIngressUpdate, ValidateIngressSpec, validateIngressRules, validateHTTPIngressPath,
 * validateIngressBackend, validateIngressTLS, ValidateIngressLoadBalancerStatus), with the
 * update allowances for invalid secret names and wildcard-host rules an old object already
 * had. RelaxedServiceNameValidation is off (its default): service names are DNS-1035 labels.
 */
import { validateDns1035Label, validateDns1123Subdomain, validatePathSegmentName } from '../../api/names.js';
import { isValidPortName, isValidPortNum, isValidIP, parseIP } from '../../api/validation/network.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import type { Ingress } from './ingresses.schema.js';

type Spec = NonNullable<Ingress['spec']>;
type Backend = NonNullable<Spec['defaultBackend']>;
type Rule = NonNullable<Spec['rules']>[number];
type Path = NonNullable<NonNullable<Rule['http']>['paths']>[number];

interface Options {
  readonly allowInvalidSecretName?: boolean;
  readonly allowInvalidWildcardHostRule?: boolean;
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];
const ANNOTATION_CLASS = 'kubernetes.io/ingress.class';

const WILDCARD_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
/** Upstream IsWildcardDNS1123Subdomain. */
export function wildcardSubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!new RegExp(`^${WILDCARD_FMT}$`).test(value))
    errs.push(
      `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${WILDCARD_FMT}')`,
    );
  return errs;
}

/** `messages` as Invalid errors of `value` at `field`. */
const each = (field: string, value: unknown, messages: string[]) => messages.map((m) => invalidValue(field, value, m));

/** Upstream validateIngressBackend. */
function validateBackend(backend: Backend, path: string): FieldError[] {
  const { resource, service } = backend;
  if (resource && service) return [invalidValue(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    const errs: FieldError[] = [];
    const at = `${path}.resource`;
    if (typeof resource.apiGroup === 'string')
      errs.push(...each(`${at}.apiGroup`, resource.apiGroup, validateDns1123Subdomain(resource.apiGroup)));
    if (!resource.kind) errs.push(required(`${at}.kind`));
    else errs.push(...each(`${at}.kind`, resource.kind, validatePathSegmentName(resource.kind)));
    if (!resource.name) errs.push(required(`${at}.name`));
    else errs.push(...each(`${at}.name`, resource.name, validatePathSegmentName(resource.name)));
    return errs;
  }
  if (!service) return [invalidValue(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  if (!service.name) errs.push(required(`${path}.service.name`));
  else errs.push(...each(`${path}.service.name`, service.name, validateDns1035Label(service.name)));
  const name = service.port?.name ?? '';
  const number = service.port?.number ?? 0;
  if (name && number) errs.push(invalidValue(path, '', 'cannot set both port name & port number'));
  else if (name) errs.push(...each(`${path}.service.port.name`, name, isValidPortName(name)));
  else if (number) errs.push(...each(`${path}.service.port.number`, number, isValidPortNum(number)));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

/** Upstream validateHTTPIngressPath. */
function validatePath(p: Path, at: string): FieldError[] {
  const type = p.pathType;
  if (type === undefined || type === null) return [required(`${at}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const path = p.path ?? '';
  if (type === 'Exact' || type === 'Prefix') {
    if (!path.startsWith('/')) errs.push(invalidValue(`${at}.path`, path, 'must be an absolute path'));
    if (path) {
      for (const seq of INVALID_SEQUENCES)
        if (path.includes(seq)) errs.push(invalidValue(`${at}.path`, path, `must not contain '${seq}'`));
      for (const suffix of INVALID_SUFFIXES)
        if (path.endsWith(suffix)) errs.push(invalidValue(`${at}.path`, path, `cannot end with '${suffix}'`));
    }
  } else if (type === 'ImplementationSpecific') {
    if (path && !path.startsWith('/')) errs.push(invalidValue(`${at}.path`, path, 'must be an absolute path'));
  } else {
    errs.push(notSupported(`${at}.pathType`, type, PATH_TYPES));
  }
  return [...errs, ...validateBackend(p.backend ?? {}, `${at}.backend`)];
}

/** Upstream validateIngressRuleValue (an http rule's paths). */
function validateRuleValue(rule: Rule, at: string): FieldError[] {
  if (!rule.http) return [];
  const paths = rule.http.paths ?? [];
  const errs = paths.length ? [] : [required(`${at}.http.paths`)];
  paths.forEach((p, i) => errs.push(...validatePath(p, `${at}.http.paths[${i}]`)));
  return errs;
}

/** Upstream validateIngressRules. */
function validateRules(rules: Rule[], opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    const host = rule.host ?? '';
    let wildcard = false;
    if (host) {
      if (parseIP(host)) errs.push(invalidValue(`${at}.host`, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        errs.push(...each(`${at}.host`, host, wildcardSubdomainErrors(host)));
        wildcard = true;
      } else errs.push(...each(`${at}.host`, host, validateDns1123Subdomain(host)));
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, at));
  });
  return errs;
}

/** Upstream validateTLSSecretName: a DNS subdomain when set. */
const secretNameErrors = (name: string): string[] => (name ? validateDns1123Subdomain(name) : []);

/** Upstream ValidateIngressSpec. */
function validateSpec(spec: Spec, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (!rules.length && !spec.defaultBackend)
    // Upstream prints the (empty) rules with %#v.
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec',
      message: `Invalid value: []networking.IngressRule${spec.rules ? '{}' : '(nil)'}: either \`defaultBackend\` or \`rules\` must be specified`,
    });
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  errs.push(...validateRules(rules, opts));
  (spec.tls ?? []).forEach((t, i) => {
    (t.hosts ?? []).forEach((host, j) => {
      const at = `spec.tls[${i}].hosts[${j}]`;
      errs.push(...each(at, host, host.includes('*') ? wildcardSubdomainErrors(host) : validateDns1123Subdomain(host)));
    });
    if (!opts.allowInvalidSecretName)
      errs.push(...each(`spec.tls[${i}].secretName`, t.secretName ?? '', secretNameErrors(t.secretName ?? '')));
  });
  if (typeof spec.ingressClassName === 'string')
    errs.push(...each('spec.ingressClassName', spec.ingressClassName, validateDns1123Subdomain(spec.ingressClassName)));
  return errs;
}

/** Upstream ValidateIngressCreate: the spec, and the class annotation matching ingressClassName. */
export function validateIngress(ing: Ingress): FieldError[] {
  const errs = validateSpec(ing.spec ?? {}, {});
  const annotation = ing.metadata.annotations?.[ANNOTATION_CLASS];
  const className = ing.spec?.ingressClassName;
  if (annotation !== undefined && typeof className === 'string' && annotation !== className)
    errs.push(
      invalidValue(
        `annotations.${ANNOTATION_CLASS}`,
        annotation,
        'must match `ingressClassName` when both are specified',
      ),
    );
  return errs;
}

/** Upstream ValidateIngressLoadBalancerStatus (IPs the old status had are accepted as they are). */
function validateStatus(ing: Ingress, old: Ingress): FieldError[] {
  const oldIps = (old.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '').filter(Boolean);
  const errs: FieldError[] = [];
  (ing.status?.loadBalancer?.ingress ?? []).forEach((lb, i) => {
    const at = `status.loadBalancer.ingress[${i}]`;
    const ip = lb.ip ?? '';
    if (ip && !oldIps.includes(ip)) errs.push(...each(`${at}.ip`, ip, isValidIP(ip).length ? IP_MESSAGE : []));
    const hostname = lb.hostname ?? '';
    if (hostname) {
      errs.push(...each(`${at}.hostname`, hostname, validateDns1123Subdomain(hostname)));
      if (parseIP(hostname))
        errs.push(invalidValue(`${at}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

const IP_MESSAGE = ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];

/** Whether an old Ingress has a wildcard-host rule its rule value fails (upstream allowInvalidWildcardHostRule). */
function hadInvalidWildcardRule(old: Ingress): boolean {
  return (old.spec?.rules ?? []).some((r) => (r.host ?? '').includes('*') && validateRuleValue(r, '').length > 0);
}

/**
 * Upstream ValidateIngressUpdate (the spec with the old object's allowances) and, for writes
 * through `/status` (a main update keeps the stored status), ValidateIngressStatusUpdate.
 */
export function validateIngressUpdate(ing: Ingress, old: Ingress): FieldError[] {
  const opts: Options = {
    allowInvalidSecretName: (old.spec?.tls ?? []).some((t) => secretNameErrors(t.secretName ?? '').length > 0),
    allowInvalidWildcardHostRule: hadInvalidWildcardRule(old),
  };
  return [...validateSpec(ing.spec ?? {}, opts), ...validateStatus(ing, old)];
}
