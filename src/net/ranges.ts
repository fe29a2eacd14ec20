/**
 * The two service ranges: cluster IPs from an IPv4 CIDR (network and broadcast addresses
 * excluded, as upstream's ipallocator) and node ports from a `base-last` port range.
 */

export interface IpRange {
  readonly cidr: string;
  readonly size: number;
  offsetOf(ip: string): number | null;
  ipAt(offset: number): string;
}

function toInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function toIp(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/** Parse `a.b.c.d/n` (IPv4, n <= 30). Throws Error with the reason. */
export function parseIpRange(cidr: string): IpRange {
  const [addr, bitsText] = cidr.split('/');
  const base = toInt(addr ?? '');
  const bits = Number(bitsText);
  if (base === null || !Number.isInteger(bits) || bits < 8 || bits > 30)
    throw new Error(`invalid service cluster IP range ${cidr}`);
  const total = 2 ** (32 - bits);
  const network = base - (base % total);
  const size = total - 2;
  return {
    cidr: `${toIp(network)}/${bits}`,
    size,
    offsetOf(ip) {
      const n = toInt(ip);
      if (n === null) return null;
      const o = n - network - 1;
      return o >= 0 && o < size ? o : null;
    },
    ipAt: (offset) => toIp(network + 1 + offset),
  };
}

export interface PortRange {
  readonly text: string;
  readonly base: number;
  readonly size: number;
}

/** Parse `30000-32767` (or one port). Throws Error with the reason. */
export function parsePortRange(text: string): PortRange {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  const base = Number(m?.[1]);
  const last = Number(m?.[2] ?? m?.[1]);
  if (!m || base < 1 || last > 65535 || last < base) throw new Error(`invalid service node port range ${text}`);
  return { text: `${base}-${last}`, base, size: last - base + 1 };
}
