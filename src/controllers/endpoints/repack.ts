/**
 * The canonical layout of an Endpoints' subsets (upstream 1.33 pkg/api/v1/endpoints/util.go
 * RepackSubsets, SortSubsets, LessEndpointAddress): every (address, port) pair is expanded, an
 * address (keyed by IP and target UID; the first one seen is kept) not ready on a port in any
 * subset is not ready there, and addresses offering the same ports with the same readiness
 * share one subset. Subsets without ports keep their addresses (a headless Service without
 * ports). Addresses are sorted by IP (bytewise) then target UID, as upstream; ports by number,
 * name, protocol and subsets by their first address, where upstream sorts both by an md5 of
 * their Go dump (so the order of several subsets or ports can differ from upstream's; the sets
 * are the same).
 */
import type { Endpoints } from '../../resources/endpoints/endpoints.schema.js';

/** One subset of an Endpoints. */
export type EndpointSubset = NonNullable<Endpoints['subsets']>[number];
/** One address of a subset. */
export type EndpointAddress = NonNullable<EndpointSubset['addresses']>[number];
/** One port of a subset. */
export type EndpointPort = NonNullable<EndpointSubset['ports']>[number];

const NO_PORT = '\u0000';
const portKey = (p: EndpointPort): string =>
  JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null]);
const addressKey = (a: EndpointAddress): string => JSON.stringify([a.ip, a.targetRef?.uid ?? '']);

/** Upstream LessEndpointAddress: by IP (bytewise), then without a target before with, then by target UID. */
export function lessEndpointAddress(a: EndpointAddress, b: EndpointAddress): boolean {
  const c = Buffer.compare(Buffer.from(a.ip), Buffer.from(b.ip));
  if (c !== 0) return c < 0;
  if (!b.targetRef) return false;
  if (!a.targetRef) return true;
  return (a.targetRef.uid ?? '') < (b.targetRef.uid ?? '');
}

const byAddress = (a: EndpointAddress, b: EndpointAddress) =>
  lessEndpointAddress(a, b) ? -1 : lessEndpointAddress(b, a) ? 1 : 0;
const byPort = (a: EndpointPort, b: EndpointPort) =>
  a.port - b.port || (a.name ?? '').localeCompare(b.name ?? '') || (a.protocol ?? '').localeCompare(b.protocol ?? '');
const firstOf = (s: EndpointSubset) => s.addresses?.[0] ?? s.notReadyAddresses?.[0];

/** Sort each subset's addresses and ports and the subsets themselves (upstream SortSubsets); returns `subsets`. */
export function sortSubsets(subsets: EndpointSubset[]): EndpointSubset[] {
  for (const s of subsets) {
    s.addresses?.sort(byAddress);
    s.notReadyAddresses?.sort(byAddress);
    s.ports?.sort(byPort);
  }
  return subsets.sort((x, y) => {
    const a = firstOf(x);
    const b = firstOf(y);
    const byAddr = a && b ? byAddress(a, b) : a ? -1 : b ? 1 : 0;
    return byAddr || (x.ports?.[0]?.port ?? 0) - (y.ports?.[0]?.port ?? 0);
  });
}

/** `subsets` expanded and repacked into the canonical layout (a new array; the input is not changed). */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const allAddrs = new Map<string, EndpointAddress>();
  const ports = new Map<string, EndpointPort | undefined>();
  /** port key -> address key -> ready */
  const byPortKey = new Map<string, Map<string, boolean>>();
  const map = (addr: EndpointAddress, pk: string, ready: boolean) => {
    const ak = addressKey(addr);
    if (!allAddrs.has(ak)) allAddrs.set(ak, structuredClone(addr));
    let set = byPortKey.get(pk);
    if (!set) byPortKey.set(pk, (set = new Map()));
    const was = set.get(ak);
    if (was === undefined || was) set.set(ak, ready); // not ready trumps ready
  };
  for (const s of subsets) {
    const subsetPorts = s.ports?.length ? s.ports : [undefined];
    for (const port of subsetPorts) {
      const pk = port && port.port > 0 ? portKey(port) : NO_PORT;
      if (!ports.has(pk)) ports.set(pk, port && port.port > 0 ? { ...port } : undefined);
      for (const a of s.addresses ?? []) map(a, pk, true);
      for (const a of s.notReadyAddresses ?? []) map(a, pk, false);
    }
  }
  const groups = new Map<string, { set: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const [pk, set] of byPortKey) {
    const key = JSON.stringify([...set.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { set, ports: [] }));
    const port = ports.get(pk);
    if (port) group.ports.push(port);
  }
  const final: EndpointSubset[] = [];
  for (const { set, ports: groupPorts } of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [ak, isReady] of set) (isReady ? ready : notReady).push(structuredClone(allAddrs.get(ak)!));
    final.push({
      ...(ready.length ? { addresses: ready } : {}),
      ...(notReady.length ? { notReadyAddresses: notReady } : {}),
      ...(groupPorts.length ? { ports: groupPorts } : {}),
    });
  }
  return sortSubsets(final);
}
