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
 * The user of a connection's client certificate, when the client sent one that the
 * `--client-ca-file` bundle verifies; null otherwise (the request may still carry a token).
 */
export function clientCertUser(socket: Pick<TLSSocket, 'authorized' | 'getPeerCertificate'> | undefined): { name: string; groups: string[] } | null {
  if (!socket?.authorized) return null;
  return userOfCertificate(socket.getPeerCertificate());
}

const first = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
const all = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v : v ? [v] : []);
