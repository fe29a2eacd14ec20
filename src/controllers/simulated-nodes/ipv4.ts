/**
 * IPv4 arithmetic for the simulated nodes: the nth address of a CIDR and the nth subnet of a
 * given prefix length inside it (what kube-controller-manager's node IPAM cuts from
 * `--cluster-cidr`, and what a CNI's host-local IPAM hands out inside a node's pod CIDR).
 */

/** An IPv4 CIDR as a base address (a 32-bit unsigned number) and a prefix length. */
export interface Cidr {
  readonly base: number;
  readonly bits: number;
}

/** Parse `a.b.c.d/n` (host bits are cleared). Throws Error for anything else. */
export function parseCidr(text: string): Cidr {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text.trim());
  const octets = m ? m.slice(1, 5).map(Number) : [];
  const bits = m ? Number(m[5]) : -1;
  if (!m || octets.some((o) => o > 255) || bits > 32) throw new Error(`invalid IPv4 CIDR "${text}"`);
  const addr = octets.reduce((acc, o) => acc * 256 + o, 0);
  const size = 2 ** (32 - bits);
  return { base: addr - (addr % size), bits };
}

/** The 32-bit number of dotted address `text`, or undefined when it is not one. */
export function ipNumber(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  const octets = m ? m.slice(1, 5).map(Number) : [];
  if (!m || octets.some((o) => o > 255)) return undefined;
  return octets.reduce((acc, o) => acc * 256 + o, 0);
}

/** Dotted form of a 32-bit address. */
export function formatIp(addr: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(addr / 2 ** s) % 256).join('.');
}

/** How many addresses `cidr` holds. */
export function cidrSize(cidr: Cidr): number {
  return 2 ** (32 - cidr.bits);
}

/** The address at `offset` in `cidr`. Throws RangeError when outside it. */
export function addressAt(cidr: Cidr, offset: number): string {
  if (offset < 0 || offset >= cidrSize(cidr)) throw new RangeError(`offset ${offset} outside /${cidr.bits}`);
  return formatIp(cidr.base + offset);
}

/** The `index`th subnet of prefix length `bits` inside `cidr`, as `a.b.c.d/bits`. Throws RangeError when it does not fit. */
export function subnetAt(cidr: Cidr, bits: number, index: number): string {
  if (bits < cidr.bits || bits > 32) throw new RangeError(`a /${bits} does not fit in a /${cidr.bits}`);
  const count = 2 ** (bits - cidr.bits);
  if (index < 0 || index >= count) throw new RangeError(`subnet ${index} outside the ${count} /${bits} of the range`);
  return `${formatIp(cidr.base + index * 2 ** (32 - bits))}/${bits}`;
}
