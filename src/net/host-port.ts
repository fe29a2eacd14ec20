/**
 * Addresses and dial failures as Go's net package writes them (net.JoinHostPort and the
 * dialer's error text of Go 1.9/1.10, as upstream 1.10 was built with): shared by the kinds'
 * connect rules, which build backend URLs, and the proxy, which dials them (http/proxy/dial.ts).
 */
import { isIP } from 'node:net';

/** `host:port`, with brackets around an IPv6 host (Go net.JoinHostPort). */
export function joinHostPort(host: string, port: string | number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The host of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port of a URL, or the scheme's default. */
export function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Go's wording of a dial failure for `addr` (upstream's error text). */
export function describeDialError(err: NodeJS.ErrnoException, host: string, addr: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: getsockopt: connection refused`;
    case 'ETIMEDOUT':
      return `dial tcp ${addr}: i/o timeout`;
    case 'EHOSTUNREACH':
      return `dial tcp ${addr}: getsockopt: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${addr}: connect: network is unreachable`;
    case 'ECONNRESET':
      return `read tcp ${addr}: read: connection reset by peer`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${host}: no such host`;
    default:
      return `dial tcp ${addr}: ${err.message}`;
  }
}
