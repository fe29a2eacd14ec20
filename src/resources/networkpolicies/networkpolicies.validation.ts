/**
 * NetworkPolicy rules of today's upstream pkg/apis/networking/validation (ValidateNetworkPolicy,
 * ValidateNetworkPolicySpec, ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer,
 * ValidateIPBlock, ValidateNetworkPolicyUpdate with ValidationOptionsForNetworking), CIDRs as
 * IsValidCIDRForLegacyField checks them with StrictIPCIDRValidation off (its default).
 */
import { isCIDR, isValidPortName, isValidPortNum, parseIP } from '../../api/validation/network.js';
import { goSlice } from '../../api/validation/resources.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { hasInvalidLabelValue, validateLabelSelector, type SelectorOptions } from '../apps-common/label-selector.js';
import type { NetworkPolicy } from './networkpolicies.schema.js';

type Spec = NonNullable<NetworkPolicy['spec']>;
type Rule = NonNullable<Spec['ingress']>[number];
type Port = NonNullable<Rule['ports']>[number];
type Peer = NonNullable<Rule['from']>[number];

interface Options extends SelectorOptions {
  /** CIDRs of the old object, accepted as they are (upstream AllowCIDRsEvenIfInvalid). */
  readonly oldCidrs?: readonly string[];
}

const CIDR_MESSAGE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** Upstream ValidateNetworkPolicyPort. */
function validatePort(port: Port, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const { protocol, port: p, endPort } = port;
  if (protocol !== undefined && protocol !== null && !['TCP', 'UDP', 'SCTP'].includes(protocol))
    errs.push(notSupported(`${path}.protocol`, protocol, ['TCP', 'UDP', 'SCTP']));
  const hasEnd = typeof endPort === 'number';
  if (typeof p === 'number') {
    errs.push(...isValidPortNum(p).map((m) => invalidValue(`${path}.port`, p, m)));
    if (typeof endPort === 'number') {
      if (endPort < p) errs.push(invalidValue(`${path}.endPort`, endPort, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(endPort).map((m) => invalidValue(`${path}.endPort`, endPort, m)));
    }
  } else if (typeof p === 'string') {
    if (hasEnd) errs.push(invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...isValidPortName(p).map((m) => invalidValue(`${path}.port`, p, m)));
  } else if (hasEnd) {
    errs.push(invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** A parsed CIDR as Go's net.ParseCIDR gives it: 16 address bytes, the prefix in 128 bits, its family. */
function parsedCidr(text: string): { ip: number[]; bits: number; v4: boolean } | null {
  if (!isCIDR(text)) return null;
  const [addr, prefix] = text.split('/');
  const ip = parseIP(addr);
  if (!ip) return null;
  const v4 = !addr.includes(':');
  return { ip, bits: Number(prefix) + (v4 ? 96 : 0), v4 };
}

/** Whether the first `bits` bits of `a` and `b` agree. */
function samePrefix(a: number[], b: number[], bits: number): boolean {
  for (let i = 0; i < 16; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = (0xff << (8 - take)) & 0xff;
    if ((a[i] & mask) !== (b[i] & mask)) return false;
  }
  return true;
}

/** IsValidCIDRForLegacyField, with the old object's values accepted. */
function legacyCidr(value: string, path: string, opts: Options): FieldError[] {
  if (opts.oldCidrs?.includes(value) || parsedCidr(value)) return [];
  return [invalidValue(path, value, CIDR_MESSAGE)];
}

/** Upstream ValidateIPBlock. */
function validateIPBlock(block: NonNullable<Peer['ipBlock']>, path: string, opts: Options): FieldError[] {
  const cidr = block.cidr ?? '';
  if (!cidr) return [required(`${path}.cidr`)];
  const errs = legacyCidr(cidr, `${path}.cidr`, opts);
  const outer = parsedCidr(cidr);
  if (!outer) return errs;
  (block.except ?? []).forEach((except, i) => {
    const at = `${path}.except[${i}]`;
    errs.push(...legacyCidr(except, at, opts));
    const inner = parsedCidr(except);
    if (!inner) return;
    const contained = inner.v4 === outer.v4 && samePrefix(outer.ip, inner.ip, outer.bits);
    if (!contained || outer.bits >= inner.bits)
      errs.push(invalidValue(at, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** Upstream ValidateNetworkPolicyPeer. */
function validatePeer(peer: Peer, path: string, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (peer.podSelector) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`, opts));
  }
  if (peer.namespaceSelector) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`, opts));
  }
  if (peer.ipBlock) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, `${path}.ipBlock`, opts));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** Upstream ValidateNetworkPolicySpec. */
function validateSpec(spec: Spec, opts: Options): FieldError[] {
  const errs = validateLabelSelector(spec.podSelector, 'spec.podSelector', opts);
  const rules = (kind: 'ingress' | 'egress', peers: 'from' | 'to') =>
    (spec[kind] ?? []).forEach((rule, i) => {
      const path = `spec.${kind}[${i}]`;
      (rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, `${path}.ports[${j}]`)));
      const list: Peer[] = (peers === 'from' ? (rule as Rule).from : (rule as { to?: Peer[] | null }).to) ?? [];
      list.forEach((peer, j) => errs.push(...validatePeer(peer, `${path}.${peers}[${j}]`, opts)));
    });
  rules('ingress', 'from');
  rules('egress', 'to');
  const types = spec.policyTypes ?? [];
  if (types.length > 2) {
    // Upstream prints the list with %#v.
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec.policyTypes',
      message: `Invalid value: ${goSlice('networking.PolicyType', types)}: may not specify more than two policyTypes`,
    });
    return errs;
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  return errs;
}

/** Upstream ValidateNetworkPolicy (the metadata rules are the store's). */
export function validateNetworkPolicy(np: NetworkPolicy): FieldError[] {
  return validateSpec(np.spec ?? {}, {});
}

/** Every ipBlock CIDR and except of a policy. */
function cidrsOf(np: NetworkPolicy): string[] {
  const spec = np.spec ?? {};
  const peers = [
    ...(spec.ingress ?? []).flatMap((r) => r.from ?? []),
    ...(spec.egress ?? []).flatMap((r) => r.to ?? []),
  ];
  return peers.flatMap((p) => (p.ipBlock ? [p.ipBlock.cidr ?? '', ...(p.ipBlock.except ?? [])] : []));
}

/**
 * Upstream ValidateNetworkPolicyUpdate with ValidationOptionsForNetworking: the rules of a new
 * policy, keeping invalid selector values and CIDRs the old policy already had.
 */
export function validateNetworkPolicyUpdate(np: NetworkPolicy, old: NetworkPolicy): FieldError[] {
  const opts: Options = {
    allowInvalidLabelValue:
      validateLabelSelector(old.spec?.podSelector, 'spec.podSelector').length > 0 ||
      hasInvalidLabelValue(old.spec?.podSelector),
    oldCidrs: cidrsOf(old),
  };
  return validateSpec(np.spec ?? {}, opts);
}
