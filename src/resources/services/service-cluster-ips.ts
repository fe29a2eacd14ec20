/**
 * The dual-stack fields of a Service as upstream 1.33 checks them (pkg/apis/core/validation:
 * ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs,
 * validateUpgradeDowngradeIPFamilies, validateLoadBalancerClassField): clusterIP and clusterIPs
 * agree, families are IPv4/IPv6 without repeats, at most one IP per family, and the primary IP
 * and family never change once set. Values are printed as Go's %#v prints them.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../api/validation/field-errors.js';
import { parseIP } from '../../api/validation/network.js';
import { validateQualifiedName } from '../../api/names.js';
import type { Service } from './services.schema.js';

type Spec = NonNullable<Service['spec']>;

export const IP_FAMILIES = ['IPv4', 'IPv6'];
export const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
/** apimachinery IsValidIP (1.33 wording). */
export const VALID_IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

const specOf = (svc: Service): Spec => svc.spec ?? {};

/** Go's %#v of a string slice of the given element type (`[]string{"a"}`, nil as `[]string(nil)`). */
export function goSlice(values: readonly string[] | null | undefined, type = 'string'): string {
  if (!values || values.length === 0) return `[]${type}(nil)`;
  return `[]${type}{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** An Invalid cause whose value is already printed (Go's %#v of a slice). */
export function invalidGo(field: string, goValue: string, detail: string): FieldError {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${goValue}: ${detail}` };
}

/** netutils.IsIPv6String: a valid address that is not IPv4 (nor IPv4-mapped). */
export function isIPv6(ip: string): boolean {
  const b = parseIP(ip);
  if (!b) return false;
  return !(b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff);
}

/** Upstream isHeadlessService: clusterIPs is exactly ["None"]. */
export function isHeadless(svc: Service | null | undefined): boolean {
  const ips = svc?.spec?.clusterIPs ?? [];
  return ips.length === 1 && ips[0] === 'None';
}

/** Upstream ValidateServiceClusterIPsRelatedFields (also run before allocation). */
export function validateServiceClusterIPsRelatedFields(svc: Service): FieldError[] {
  const spec = specOf(svc);
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  const families = spec.ipFamilies ?? [];
  const ipsGo = goSlice(ips);
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP)
      errs.push(invalidGo('spec.clusterIPs', ipsGo, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalidGo('spec.clusterIPs', ipsGo, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  for (const [i, family] of families.entries()) {
    if (!IP_FAMILIES.includes(family)) errs.push(notSupported(`spec.ipFamilies[${i}]`, family, IP_FAMILIES));
    if (seen.has(family)) errs.push(duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  }
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !IP_FAMILY_POLICIES.includes(policy))
    errs.push(notSupported('spec.ipFamilyPolicy', policy, IP_FAMILY_POLICIES));
  let invalidIPs = false;
  for (const [i, ip] of ips.entries()) {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(invalidGo('spec.clusterIPs', ipsGo, "'None' must be the first and only value"));
      }
      continue;
    }
    if (!parseIP(ip)) {
      invalidIPs = true;
      errs.push(invalidValue(`spec.clusterIPs[${i}]`, ip, VALID_IP_MSG));
    }
  }
  if (ips.length > 2) errs.push(invalidGo('spec.clusterIPs', ipsGo, 'may only hold up to 2 values'));
  if (invalidIPs) return errs;
  if (ips.length > 1 && !(ips.length === 2 && isIPv6(ips[0]) !== isIPv6(ips[1])))
    errs.push(invalidGo('spec.clusterIPs', ipsGo, 'may specify no more than one IP for each IP family'));
  if (!isHeadless(svc) && ips.length > 0 && families.length > 0) {
    for (const [i, ip] of ips.entries()) {
      if (i > families.length - 1) break;
      if (families[i] === 'IPv4' && isIPv6(ip))
        errs.push(
          invalidValue(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``),
        );
      if (families[i] === 'IPv6' && !isIPv6(ip))
        errs.push(
          invalidValue(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``),
        );
    }
  }
  return errs;
}

const MAY_NOT_CHANGE = 'may not change once set';

/** Upstream validateUpgradeDowngradeClusterIPs. */
export function validateUpgradeDowngradeClusterIPs(old: Service, svc: Service): FieldError[] {
  const spec = specOf(svc);
  const prev = specOf(old);
  if (spec.type === 'ExternalName' || prev.type === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(svc)) return [];
  const before = prev.clusterIPs ?? [];
  const after = spec.clusterIPs ?? [];
  const afterGo = goSlice(after);
  const errs: FieldError[] = [];
  if (before.length === after.length) {
    for (const [i, ip] of before.entries())
      if (ip !== after[i]) errs.push(invalidGo(`spec.clusterIPs[${i}]`, afterGo, MAY_NOT_CHANGE));
  } else if (before.length > after.length) {
    if (after.length === 0) errs.push(invalidGo('spec.clusterIPs[0]', afterGo, 'primary clusterIP can not be unset'));
    if (before.length > 0 && after.length > 0 && after[0] !== before[0])
      errs.push(invalidGo('spec.clusterIPs[0]', afterGo, MAY_NOT_CHANGE));
    if (after.length === 1 && spec.ipFamilyPolicy !== 'SingleStack')
      errs.push(
        invalidValue(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      );
  } else if (before.length > 0 && after[0] !== before[0]) {
    errs.push(invalidGo('spec.clusterIPs[0]', afterGo, MAY_NOT_CHANGE));
  }
  return errs;
}

/** Upstream validateUpgradeDowngradeIPFamilies (its values printed as upstream does, sic). */
export function validateUpgradeDowngradeIPFamilies(old: Service, svc: Service): FieldError[] {
  const spec = specOf(svc);
  const prev = specOf(old);
  if (spec.type === 'ExternalName' || prev.type === 'ExternalName') return [];
  if (isHeadless(old) !== isHeadless(svc) || isHeadless(svc)) return [];
  const before = prev.ipFamilies ?? [];
  const after = spec.ipFamilies ?? [];
  const errs: FieldError[] = [];
  if (before.length === after.length) {
    for (const [i, family] of before.entries())
      if (family !== after[i])
        errs.push(invalidGo('spec.ipFamilies[0]', goSlice(after, 'core.IPFamily'), MAY_NOT_CHANGE));
  } else if (before.length > after.length) {
    if ((spec.clusterIPs ?? []).length === 0)
      errs.push(invalidGo('spec.ipFamilies[0]', goSlice(after, 'core.IPFamily'), 'primary ipFamily can not be unset'));
    if (after.length > 0 && after[0] !== before[0])
      errs.push(invalidGo('spec.ipFamilies[0]', goSlice(spec.clusterIPs), MAY_NOT_CHANGE));
    if (after.length === 1 && spec.ipFamilyPolicy !== 'SingleStack')
      errs.push(
        invalidValue(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      );
  } else if (before.length > 0 && after.length > 0 && after[0] !== before[0]) {
    errs.push(invalidGo('spec.ipFamilies[0]', goSlice(spec.clusterIPs), MAY_NOT_CHANGE));
  }
  return errs;
}

/** Upstream validateLoadBalancerClassField (old null on create). */
export function validateLoadBalancerClassField(old: Service | null, svc: Service): FieldError[] {
  const spec = specOf(svc);
  const lbClass = spec.loadBalancerClass;
  const errs: FieldError[] = [];
  if (old && old.spec?.type === 'LoadBalancer' && spec.type === 'LoadBalancer') {
    if ((old.spec.loadBalancerClass ?? null) !== (lbClass ?? null))
      errs.push(invalidValue('spec.loadBalancerClass', lbClass, MAY_NOT_CHANGE));
  }
  if (spec.type === 'LoadBalancer') {
    if (lbClass !== undefined && lbClass !== null)
      errs.push(...validateQualifiedName(lbClass).map((m) => invalidValue('spec.loadBalancerClass', lbClass, m)));
  } else if (lbClass !== undefined && lbClass !== null) {
    errs.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}
