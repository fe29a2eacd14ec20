/**
 * Pod IPs of one simulated node, from its pod CIDR as a CNI's host-local IPAM hands them out:
 * the lowest free address from the third on (the first is the network, the second the
 * bridge's gateway), never the broadcast address; one per pod uid, kept until released.
 */
import { addressAt, cidrSize, ipNumber, parseCidr, type Cidr } from './ipv4.js';

export class PodIpAllocator {
  private readonly cidr: Cidr;
  private readonly byPod = new Map<string, string>();
  private readonly used = new Set<string>();

  /** `podCIDR`: an IPv4 CIDR (throws Error otherwise). */
  constructor(podCIDR: string) {
    this.cidr = parseCidr(podCIDR);
  }

  /**
   * The IP of pod `uid`: the one it holds, else `current` (what its status already reports,
   * when free and in range), else the lowest free address. Throws RangeError when the range
   * is exhausted.
   */
  assign(uid: string, current?: string | null): string {
    const held = this.byPod.get(uid);
    if (held) return held;
    const wanted = current && !this.used.has(current) && this.contains(current) ? current : this.lowestFree();
    this.byPod.set(uid, wanted);
    this.used.add(wanted);
    return wanted;
  }

  /** Free the IP of pod `uid` (nothing when it holds none). */
  release(uid: string): void {
    const ip = this.byPod.get(uid);
    if (ip) this.used.delete(ip);
    this.byPod.delete(uid);
  }

  /** Whether `ip` is an address this allocator hands out. */
  private contains(ip: string): boolean {
    const n = ipNumber(ip);
    return n !== undefined && n >= this.cidr.base + 2 && n < this.cidr.base + cidrSize(this.cidr) - 1;
  }

  private lowestFree(): string {
    for (let i = 2; i < cidrSize(this.cidr) - 1; i++) {
      const ip = addressAt(this.cidr, i);
      if (!this.used.has(ip)) return ip;
    }
    throw new RangeError(`no free pod IP in /${this.cidr.bits}`);
  }
}
