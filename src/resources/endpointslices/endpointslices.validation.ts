/**
 * EndpointSlice rules of upstream pkg/apis/discovery/validation/validation.go (1.33:
 * ValidateEndpointSlice, ValidateEndpointSliceUpdate, validateEndpoints, validatePorts,
 * validateAddressType, validateHints) with apimachinery's IsValidIPv4Address,
 * IsValidIPv6Address, IsFullyQualifiedDomainName and core ValidateEndpointIP. Not repeated:
 * deprecatedTopology's rules (v1 writes drop the field first), hints.forNodes' (dropped while
 * PreferSameTrafficDistribution is off) and a port's required protocol (defaulted to TCP).
 */
import { validateDns1123Label, validateDns1123Subdomain, validateLabelValue } from '../../api/names.js';
import {
  duplicate,
  invalidValue,
  notSupported,
  required,
  tooMany,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { parseIP } from '../../api/validation/network.js';
import { nodeName, qualifiedName } from '../storageclasses/storage-common.js';
import type { EndpointSlice } from './endpointslices.schema.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;

type Endpoint = NonNullable<EndpointSlice['endpoints']>[number];
type Port = NonNullable<EndpointSlice['ports']>[number];

/** Whether the 16 bytes of a parsed address are an IPv4 one (::ffff:a.b.c.d). */
const isV4 = (ip: number[]) => ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;

/** core ValidateEndpointIP (1.33): a valid IP that is not unspecified, loopback or link-local. */
function validateEndpointIP(value: string, field: string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [invalidValue(field, value, 'must be a valid IP address')];
  const v4 = isV4(ip);
  const bytes = v4 ? ip.slice(12) : ip;
  const errs: FieldError[] = [];
  if (bytes.every((b) => b === 0)) errs.push(invalidValue(field, value, `may not be unspecified (${value})`));
  if (v4 ? bytes[0] === 127 : bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1)
    errs.push(invalidValue(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 ? bytes[0] === 169 && bytes[1] === 254 : bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80)
    errs.push(invalidValue(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (v4 ? bytes[0] === 224 && bytes[1] === 0 && bytes[2] === 0 : bytes[0] === 0xff && (bytes[1]! & 0x0f) === 0x02)
    errs.push(invalidValue(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** IsValidIPv4Address / IsValidIPv6Address. */
function ipOfFamily(value: string, family: 'IPv4' | 'IPv6', field: string): FieldError[] {
  const ip = parseIP(value);
  const ok = ip !== null && isV4(ip) === (family === 'IPv4');
  return ok ? [] : [invalidValue(field, value, `must be a valid ${family} address`)];
}

/** IsFullyQualifiedDomainName: a DNS subdomain of at least two labels (a trailing dot ignored). */
function fqdn(value: string, field: string): FieldError[] {
  if (!value) return [required(field)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const sub = validateDns1123Subdomain(name);
  if (sub.length) return [invalidValue(field, name, sub.join(','))];
  const labels = name.split('.');
  if (labels.length < 2)
    return [invalidValue(field, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const errs = validateDns1123Label(label);
    if (errs.length) return [invalidValue(field, label, errs.join(','))];
  }
  return [];
}

/** validateHints (forZones). */
function validateHints(hints: NonNullable<Endpoint['hints']>, field: string): FieldError[] {
  const zones = hints.forZones ?? [];
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(`${field}.forZones`, zones.length, MAX_ZONE_HINTS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, z] of zones.entries()) {
    const at = `${field}.forZones[${i}].name`;
    const name = z.name ?? '';
    if (seen.has(name)) errs.push(duplicate(at, name));
    else seen.add(name);
    for (const m of validateLabelValue(name)) errs.push(invalidValue(at, name, m));
  }
  return errs;
}

/** validateEndpoints. */
function validateEndpoints(endpoints: readonly Endpoint[], addressType: string): FieldError[] {
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  for (const [i, e] of endpoints.entries()) {
    const at = `endpoints[${i}]`;
    const addresses = e.addresses ?? [];
    if (!addresses.length) errs.push(required(`${at}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
    for (const [j, a] of addresses.entries()) {
      const field = `${at}.addresses[${j}]`;
      if (addressType === 'IPv4' || addressType === 'IPv6')
        errs.push(...ipOfFamily(a, addressType, field), ...validateEndpointIP(a, field));
      else if (addressType === 'FQDN') errs.push(...fqdn(a, field));
    }
    if (typeof e.nodeName === 'string') errs.push(...nodeName(e.nodeName, `${at}.nodeName`));
    if (typeof e.hostname === 'string')
      for (const m of validateDns1123Label(e.hostname)) errs.push(invalidValue(`${at}.hostname`, e.hostname, m));
    if (e.hints) errs.push(...validateHints(e.hints, `${at}.hints`));
  }
  return errs;
}

/** validatePorts. */
function validatePorts(ports: readonly Port[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, p] of ports.entries()) {
    const at = `ports[${i}]`;
    const name = p.name ?? '';
    if (name) for (const m of validateDns1123Label(name)) errs.push(invalidValue(`${at}.name`, name, m));
    if (names.has(name)) errs.push(duplicate(`${at}.name`, name));
    else names.add(name);
    if (p.protocol === undefined || p.protocol === null) errs.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
    if (typeof p.appProtocol === 'string') errs.push(...qualifiedName(p.appProtocol, `${at}.appProtocol`));
  }
  return errs;
}

/** ValidateEndpointSlice (the metadata rules are common). */
export function validateEndpointSlice(obj: EndpointSlice): FieldError[] {
  const type = obj.addressType ?? '';
  const errs: FieldError[] = [];
  if (!type) errs.push(required('addressType'));
  else if (!ADDRESS_TYPES.includes(type)) errs.push(notSupported('addressType', type, ADDRESS_TYPES));
  errs.push(...validateEndpoints(obj.endpoints ?? [], type), ...validatePorts(obj.ports ?? []));
  return errs;
}

/** ValidateEndpointSliceUpdate: the object rules, and addressType unchanged. */
export function validateEndpointSliceUpdate(obj: EndpointSlice, old: EndpointSlice): FieldError[] {
  const errs = validateEndpointSlice(obj);
  if ((obj.addressType ?? '') !== (old.addressType ?? ''))
    errs.push(invalidValue('addressType', obj.addressType ?? '', 'field is immutable'));
  return errs;
}
