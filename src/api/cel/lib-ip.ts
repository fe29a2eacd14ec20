/**
 * The Kubernetes IP and CIDR libraries (k8s.io/apiserver pkg/cel/library/ip.go, cidr.go; 1.30+):
 * `ip(s)`, `isIP(s)`, `ip.isCanonical(s)`, `family()`, `isUnspecified()`, `isLoopback()`,
 * `isLinkLocalMulticast()`, `isLinkLocalUnicast()`, `isGlobalUnicast()`, `cidr(s)`, `isCIDR(s)`,
 * `containsIP`, `containsCIDR`, `ip()`, `masked()`, `prefixLength()`, `string(...)`. Parsing as
 * Go's netip (no leading zeros in IPv4, no zones, IPv4-mapped IPv6 refused as upstream).
 */
import { type Overload, global, member } from './functions.js';
import { BOOL, INT, STRING, opaque } from './types.js';
import { CelErr, CelOpaque, type Result } from './values.js';

/** An address: 4 or 16 bytes. */
export class IpValue extends CelOpaque {
  readonly typeName = 'net.IP';
  constructor(readonly bytes: readonly number[]) {
    super();
  }
  equals(o: CelOpaque): boolean {
    return o instanceof IpValue && o.bytes.join() === this.bytes.join();
  }
  override toString(): string {
    return formatIp(this.bytes);
  }
}

/** A prefix: address and length. */
export class CidrValue extends CelOpaque {
  readonly typeName = 'net.CIDR';
  constructor(
    readonly ip: IpValue,
    readonly bits: number,
  ) {
    super();
  }
  equals(o: CelOpaque): boolean {
    return o instanceof CidrValue && o.ip.equals(this.ip) && o.bits === this.bits;
  }
}

const IP_T = opaque('net.IP');
const CIDR_T = opaque('net.CIDR');

function parseV4(s: string): number[] | undefined {
  const p = s.split('.');
  if (p.length !== 4 || p.some((x) => !/^(0|[1-9]\d{0,2})$/.test(x) || Number(x) > 255)) return undefined;
  return p.map(Number);
}

function parseV6(s: string): number[] | undefined {
  if (s.includes('%')) return undefined;
  let tail: number[] = [];
  let str = s;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    str = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = str.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...rest].map((g) => parseInt(g, 16));
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Parse an address as netip.ParseAddr; undefined when it is not one. */
export function parseIpBytes(s: string): number[] | undefined {
  return s.includes(':') ? parseV6(s) : parseV4(s);
}

function formatIp(b: readonly number[]): string {
  if (b.length === 4) return b.join('.');
  const g = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

const isMapped = (b: readonly number[]) =>
  b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

function ip(s: string): IpValue | CelErr {
  const b = parseIpBytes(s);
  if (!b)
    return new CelErr(
      `IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`,
    );
  if (isMapped(b)) return new CelErr('IPv4-mapped IPv6 address is not allowed');
  return new IpValue(b);
}

function cidr(s: string): CidrValue | CelErr {
  const slash = s.lastIndexOf('/');
  const bits = slash >= 0 ? s.slice(slash + 1) : '';
  const addr = slash >= 0 ? parseIpBytes(s.slice(0, slash)) : undefined;
  const max = addr ? addr.length * 8 : 0;
  if (!addr || !/^(0|[1-9]\d*)$/.test(bits) || Number(bits) > max) {
    return new CelErr(
      `network address parse error during conversion from string: netip.ParsePrefix("${s}"): bad prefix`,
    );
  }
  if (isMapped(addr)) return new CelErr('IPv4-mapped IPv6 address is not allowed');
  return new CidrValue(new IpValue(addr), Number(bits));
}

function mask(b: readonly number[], bits: number): number[] {
  return b.map((x, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return x & ((0xff << (8 - keep)) & 0xff);
  });
}

const contains = (c: CidrValue, b: readonly number[]): boolean =>
  b.length === c.ip.bytes.length && mask(b, c.bits).join() === mask(c.ip.bytes, c.bits).join();

const asIp = (x: IpValue | string): Result => (typeof x === 'string' ? ip(x) : x);
const asCidr = (x: CidrValue | string): Result => (typeof x === 'string' ? cidr(x) : x);

/** The IP and CIDR libraries' overloads. */
export const NETWORK: readonly Overload[] = [
  global('ip', 'string_to_ip', [STRING], IP_T, ip),
  global('isIP', 'is_ip', [STRING], BOOL, (s: string) => !(ip(s) instanceof CelErr)),
  global('ip.isCanonical', 'ip_is_canonical', [STRING], BOOL, (s: string) => {
    const v = ip(s);
    return v instanceof CelErr ? v : formatIp(v.bytes) === s;
  }),
  global('string', 'ip_to_string', [IP_T], STRING, (v: IpValue) => formatIp(v.bytes)),
  member('family', 'ip_family', [IP_T], INT, (v: IpValue) => (v.bytes.length === 4 ? 4n : 6n)),
  member('isUnspecified', 'ip_is_unspecified', [IP_T], BOOL, (v: IpValue) => v.bytes.every((x) => x === 0)),
  member('isLoopback', 'ip_is_loopback', [IP_T], BOOL, (v: IpValue) =>
    v.bytes.length === 4 ? v.bytes[0] === 127 : v.bytes.slice(0, 15).every((x) => x === 0) && v.bytes[15] === 1,
  ),
  member('isLinkLocalMulticast', 'ip_is_link_local_multicast', [IP_T], BOOL, (v: IpValue) =>
    v.bytes.length === 4
      ? v.bytes[0] === 224 && v.bytes[1] === 0 && v.bytes[2] === 0
      : v.bytes[0] === 0xff && (v.bytes[1]! & 0x0f) === 0x02,
  ),
  member('isLinkLocalUnicast', 'ip_is_link_local_unicast', [IP_T], BOOL, (v: IpValue) =>
    v.bytes.length === 4
      ? v.bytes[0] === 169 && v.bytes[1] === 254
      : v.bytes[0] === 0xfe && (v.bytes[1]! & 0xc0) === 0x80,
  ),
  member('isGlobalUnicast', 'ip_is_global_unicast', [IP_T], BOOL, (v: IpValue) => {
    const b = v.bytes;
    if (b.length === 4) {
      return !(
        b.every((x) => x === 0) ||
        b[0] === 127 ||
        b[0]! >= 224 ||
        (b[0] === 169 && b[1] === 254) ||
        b.every((x) => x === 255)
      );
    }
    return !(b.slice(0, 15).every((x) => x === 0) || b[0] === 0xff || (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80));
  }),
  global('cidr', 'string_to_cidr', [STRING], CIDR_T, cidr),
  global('isCIDR', 'is_cidr', [STRING], BOOL, (s: string) => !(cidr(s) instanceof CelErr)),
  global('string', 'cidr_to_string', [CIDR_T], STRING, (c: CidrValue) => `${formatIp(c.ip.bytes)}/${c.bits}`),
  member('containsIP', 'cidr_contains_ip_string', [CIDR_T, STRING], BOOL, (c: CidrValue, s: string) => {
    const v = asIp(s);
    return v instanceof CelErr ? v : contains(c, (v as IpValue).bytes);
  }),
  member('containsIP', 'cidr_contains_ip_ip', [CIDR_T, IP_T], BOOL, (c: CidrValue, v: IpValue) => contains(c, v.bytes)),
  member('containsCIDR', 'cidr_contains_cidr_string', [CIDR_T, STRING], BOOL, (c: CidrValue, s: string) => {
    const o = asCidr(s);
    return o instanceof CelErr ? o : (o as CidrValue).bits >= c.bits && contains(c, (o as CidrValue).ip.bytes);
  }),
  member(
    'containsCIDR',
    'cidr_contains_cidr',
    [CIDR_T, CIDR_T],
    BOOL,
    (c: CidrValue, o: CidrValue) => o.bits >= c.bits && contains(c, o.ip.bytes),
  ),
  member('ip', 'cidr_ip', [CIDR_T], IP_T, (c: CidrValue) => c.ip),
  member(
    'masked',
    'cidr_masked',
    [CIDR_T],
    CIDR_T,
    (c: CidrValue) => new CidrValue(new IpValue(mask(c.ip.bytes, c.bits)), c.bits),
  ),
  member('prefixLength', 'cidr_prefix_length', [CIDR_T], INT, (c: CidrValue) => BigInt(c.bits)),
];
