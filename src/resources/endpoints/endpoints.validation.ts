/**
 * Endpoints rules of upstream 1.33 pkg/apis/core/validation: ValidateEndpoints,
 * ValidateEndpointsUpdate, validateEndpointSubsets, validateEndpointAddress (with
 * ValidateNonSpecialIP, now run on every address) and validateEndpointPort (SCTP, appProtocol).
 * Since 1.10 an update may change an address's node name. Rows E33-* of core-today.md.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { invalidValue, notSupported, required } from '../../api/validation/field-errors.js';
import { isValidPortNum, parseIP } from '../../api/validation/network.js';
import { validateDns1123Label, validateDns1123Subdomain, validateQualifiedName } from '../../api/names.js';
import type { Endpoints } from './endpoints.schema.js';

type Subset = NonNullable<Endpoints['subsets']>[number];
type Address = NonNullable<Subset['addresses']>[number];
type Port = NonNullable<Subset['ports']>[number];

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

const subsetsOf = (obj: Endpoints): Subset[] => obj.subsets ?? [];

/** apimachinery IsValidIP, 1.33 wording. */
const VALID_IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** Upstream 1.33 ValidateNonSpecialIP (IPv6 ranges named in the messages). */
function validateNonSpecialIP(value: string, path: string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [invalidValue(path, value, 'must be a valid IP address')];
  const v4 = ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
  const [a, b, c] = v4 ? ip.slice(12) : [ip[0], ip[1], ip[2]];
  const errs: FieldError[] = [];
  if ((v4 ? ip.slice(12) : ip).every((x) => x === 0))
    errs.push(invalidValue(path, value, `may not be unspecified (${value})`));
  if (v4 ? a === 127 : ip.slice(0, 15).every((x) => x === 0) && ip[15] === 1)
    errs.push(invalidValue(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 ? a === 169 && b === 254 : a === 0xfe && (b! & 0xc0) === 0x80)
    errs.push(invalidValue(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (v4 ? a === 224 && b === 0 && c === 0 : a === 0xff && (b! & 0x0f) === 0x02)
    errs.push(invalidValue(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** Upstream validateEndpointAddress: IP, hostname, node name, then the special-IP rules. */
function validateEndpointAddress(a: Address, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ip = a.ip ?? '';
  if (!parseIP(ip)) errs.push(invalidValue(`${path}.ip`, ip, VALID_IP_MSG));
  if (a.hostname)
    errs.push(...validateDns1123Label(a.hostname).map((m) => invalidValue(`${path}.hostname`, a.hostname, m)));
  if (a.nodeName !== undefined && a.nodeName !== null) {
    errs.push(...validateDns1123Subdomain(a.nodeName).map((m) => invalidValue(`${path}.nodeName`, a.nodeName, m)));
  }
  errs.push(...validateNonSpecialIP(ip, `${path}.ip`));
  return errs;
}

/** Upstream validateEndpointPort: a name when there are several, a port number, a protocol, appProtocol. */
function validateEndpointPort(p: Port, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p.name) errs.push(required(`${path}.name`));
  else if (p.name) errs.push(...validateDns1123Label(p.name).map((m) => invalidValue(`${path}.name`, p.name, m)));
  for (const m of isValidPortNum(p.port ?? 0)) errs.push(invalidValue(`${path}.port`, p.port ?? 0, m));
  if (!p.protocol) errs.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  if (p.appProtocol !== undefined && p.appProtocol !== null)
    errs.push(
      ...validateQualifiedName(p.appProtocol).map((m) => invalidValue(`${path}.appProtocol`, p.appProtocol, m)),
    );
  return errs;
}

/** Upstream validateEndpointSubsets. */
function validateEndpointSubsets(subsets: Subset[]): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, s] of subsets.entries()) {
    const path = `subsets[${i}]`;
    const addresses = s.addresses ?? [];
    const notReady = s.notReadyAddresses ?? [];
    const ports = s.ports ?? [];
    if (addresses.length === 0 && notReady.length === 0)
      errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [j, a] of addresses.entries()) errs.push(...validateEndpointAddress(a, `${path}.addresses[${j}]`));
    for (const [j, a] of notReady.entries())
      errs.push(...validateEndpointAddress(a, `${path}.notReadyAddresses[${j}]`));
    for (const [k, p] of ports.entries())
      errs.push(...validateEndpointPort(p, ports.length > 1, `${path}.ports[${k}]`));
  }
  return errs;
}

/** Upstream ValidateEndpoints (the ObjectMeta rules are the store's). */
export function validateEndpoints(obj: Endpoints): FieldError[] {
  return validateEndpointSubsets(subsetsOf(obj));
}

/** Upstream ValidateEndpointsUpdate: the same rules (node names may change since 1.11). */
export function validateEndpointsUpdate(obj: Endpoints): FieldError[] {
  return validateEndpointSubsets(subsetsOf(obj));
}
