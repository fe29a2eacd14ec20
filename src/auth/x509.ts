/**
 * The x509 authenticator (upstream k8s.io/apiserver pkg/authentication/request/x509): a client
 * certificate verified against `--client-ca-file` names the user (CN) and its groups (every
 * O). A certificate whose extended key usage excludes client authentication names nobody.
 */
import type { PeerCertificate, TLSSocket } from 'node:tls';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';

/** The user a client certificate names: CN and the O values; null without a usable CN. */
export function userOfCertificate(cert: PeerCertificate): { name: string; groups: string[] } | null {
  const name = first(cert.subject?.CN);
  if (!name) return null;
  const usages = (cert as PeerCertificate & { ext_key_usage?: string[] }).ext_key_usage;
  if (usages && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE)) return null;
  return { name, groups: all(cert.subject?.O) };
}

/**
 * What the connection's client certificate says (upstream x509 Authenticator): `user` when one
 * was sent, verified and names a user; `error` when one was sent but does not verify or may not
 * authenticate clients (upstream returns an error, so such a request is never anonymous); null
 * when none was sent or it names nobody (no CN).
 */
export function clientCertificate(
  socket: (Pick<TLSSocket, 'authorized' | 'getPeerCertificate'> & { authorizationError?: Error | string }) | undefined,
): { user: { name: string; groups: string[] } } | { error: string } | null {
  if (!socket) return null;
  const cert = socket.getPeerCertificate?.();
  if (!cert || Object.keys(cert).length === 0) return null;
  if (!socket.authorized)
    return { error: `verifying certificate failed: ${String(socket.authorizationError ?? 'unknown authority')}` };
  if (!first(cert.subject?.CN)) return null;
  const user = userOfCertificate(cert);
  return user ? { user } : { error: 'x509: certificate specifies an incompatible key usage' };
}

const first = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
const all = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v : v ? [v] : []);
