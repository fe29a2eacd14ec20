/**
 * Helpers shared by the kinds' connect rules: the `[scheme:]name[:port]` form of a proxied
 * name, the addresses a proxy may not reach, and the Go-like query encoding of backend URLs.
 * Follow upstream k8s.io/apimachinery pkg/util/net (SplitSchemeNamePort) and pkg/proxy/util
 * (IsProxyableIP, IsProxyableHostname) of 1.10.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest } from '../errors/api-error.js';

export interface SchemeNamePort {
  readonly scheme: '' | 'http' | 'https';
  readonly name: string;
  readonly port: string;
}

/**
 * Split `name`, `name:port` or `scheme:name:port` (upstream SplitSchemeNamePort). Returns
 * undefined for another shape, an empty name or a scheme other than http/https.
 */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) [name] = parts;
  else if (parts.length === 2) [name, port] = parts;
  else if (parts.length === 3) [scheme, name, port] = parts;
  else return undefined;
  if (!name || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme: scheme as SchemeNamePort['scheme'], name, port };
}

/** Whether `ip` is loopback or link-local (v4 or v6), which proxies refuse. */
function isLocalAddress(ip: string): boolean {
  if (isIP(ip) === 4) return ip.startsWith('127.') || ip.startsWith('169.254.') || ip.startsWith('224.0.0.');
  const v6 = ip.toLowerCase();
  if (v6.startsWith('::ffff:')) return isLocalAddress(v6.slice(7));
  return v6 === '::1' || /^fe[89ab]/.test(v6) || /^ff0[12]:/.test(v6);
}

/**
 * Upstream IsProxyableIP: throws ApiError 400 `address not allowed` for a value that is not an
 * IP address or is loopback or link-local.
 */
export function checkProxyableIP(ip: string | undefined): asserts ip is string {
  if (!ip || !isIP(ip) || isLocalAddress(ip)) throw badRequest('address not allowed');
}

/**
 * Upstream IsProxyableHostname: resolves `host` and throws ApiError 400 when any address is
 * loopback or link-local (`address not allowed`) or it does not resolve (Go's lookup text).
 */
export async function checkProxyableHostname(host: string): Promise<void> {
  if (isIP(host)) return checkProxyableIP(host);
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw badRequest(`lookup ${host}: no such host`);
  }
  for (const a of addresses) checkProxyableIP(a.address);
}

/**
 * Query text as Go's url.Values.Encode writes it: keys sorted, values in order, `+` for
 * spaces. `entries` are [key, value] pairs.
 */
export function encodeQuery(entries: readonly (readonly [string, string])[]): string {
  const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new URLSearchParams(sorted as [string, string][]).toString();
}

/**
 * Join a backend path and a proxied subpath, keeping a trailing slash of the subpath (upstream
 * JoinPreservingTrailingSlash); `subpath` is raw (still percent-encoded).
 */
export function joinPath(base: string, subpath: string): string {
  const left = base.replace(/\/+$/, '');
  const right = subpath.replace(/^\/+/, '');
  if (!right) return left || '/';
  return `${left}/${right}`;
}

/** Whether `port` is a decimal TCP port (1-65535). */
export function isPortNumber(port: string): boolean {
  return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
}
