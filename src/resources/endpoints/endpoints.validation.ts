/**
 * Endpoints rules of upstream 1.10 pkg/apis/core/validation: ValidateEndpoints,
 * ValidateEndpointsUpdate, validateEndpointSubsets, validateEndpointAddress (with
 * validateEpAddrNodeNameTransition and validateNonSpecialIP) and validateEndpointPort.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../api/validation/field-errors.js';
import { isValidIP, isValidPortNum, validateNonSpecialIP } from '../../api/validation/network.js';
import { validateDns1123Label, validateDns1123Subdomain } from '../../api/names.js';
import type { Endpoints } from './endpoints.schema.js';

type Subset = NonNullable<Endpoints['subsets']>[number];
type Address = NonNullable<Subset['addresses']>[number];
type Port = NonNullable<Subset['ports']>[number];

const PROTOCOLS = ['TCP', 'UDP'];

const subsetsOf = (obj: Endpoints): Subset[] => obj.subsets ?? [];

/** Upstream buildEndpointAddressNodeNameMap: IP -> nodeName over every address of the old subsets. */
function nodeNamesByIP(subsets: Subset[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of subsets) {
    for (const a of [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])]) {
      if (a.nodeName !== undefined && a.nodeName !== null && a.ip !== undefined) out.set(a.ip, a.nodeName);
    }
  }
  return out;
}

/** Upstream validateEndpointAddress: the special-IP rules only when nothing else failed. */
function validateEndpointAddress(a: Address, path: string, nodeNames: Map<string, string>): FieldError[] {
  const errs: FieldError[] = [];
  const ip = a.ip ?? '';
  errs.push(...isValidIP(ip).map((m) => invalidValue(`${path}.ip`, ip, m)));
  if (a.hostname)
    errs.push(...validateDns1123Label(a.hostname).map((m) => invalidValue(`${path}.hostname`, a.hostname, m)));
  if (a.nodeName !== undefined && a.nodeName !== null) {
    errs.push(...validateDns1123Subdomain(a.nodeName).map((m) => invalidValue(`${path}.nodeName`, a.nodeName, m)));
  }
  const existing = nodeNames.get(ip);
  if (existing !== undefined && a.nodeName !== undefined && a.nodeName !== null && a.nodeName !== existing) {
    errs.push(forbidden(`${path}.nodeName`, `Cannot change NodeName for ${ip} to ${a.nodeName}`));
  }
  if (errs.length) return errs;
  return validateNonSpecialIP(ip, `${path}.ip`);
}

/** Upstream validateEndpointPort: a name when there are several, a port number, TCP or UDP. */
function validateEndpointPort(p: Port, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p.name) errs.push(required(`${path}.name`));
  else if (p.name) errs.push(...validateDns1123Label(p.name).map((m) => invalidValue(`${path}.name`, p.name, m)));
  for (const m of isValidPortNum(p.port ?? 0)) errs.push(invalidValue(`${path}.port`, p.port ?? 0, m));
  if (!p.protocol) errs.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  return errs;
}

/** Upstream validateEndpointSubsets; `old` carries the node names an update may not change. */
function validateEndpointSubsets(subsets: Subset[], old: Subset[]): FieldError[] {
  const errs: FieldError[] = [];
  const nodeNames = nodeNamesByIP(old);
  for (const [i, s] of subsets.entries()) {
    const path = `subsets[${i}]`;
    const addresses = s.addresses ?? [];
    const notReady = s.notReadyAddresses ?? [];
    const ports = s.ports ?? [];
    if (addresses.length === 0 && notReady.length === 0)
      errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [j, a] of addresses.entries())
      errs.push(...validateEndpointAddress(a, `${path}.addresses[${j}]`, nodeNames));
    for (const [j, a] of notReady.entries())
      errs.push(...validateEndpointAddress(a, `${path}.notReadyAddresses[${j}]`, nodeNames));
    for (const [k, p] of ports.entries())
      errs.push(...validateEndpointPort(p, ports.length > 1, `${path}.ports[${k}]`));
  }
  return errs;
}

/** Upstream ValidateEndpoints (the ObjectMeta rules are the store's). */
export function validateEndpoints(obj: Endpoints): FieldError[] {
  return validateEndpointSubsets(subsetsOf(obj), []);
}

/** Upstream ValidateEndpointsUpdate: the same rules, and an address keeps its node name. */
export function validateEndpointsUpdate(obj: Endpoints, old: Endpoints): FieldError[] {
  return validateEndpointSubsets(subsetsOf(obj), subsetsOf(old));
}
