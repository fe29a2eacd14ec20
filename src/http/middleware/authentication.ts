/**
 * Authentication: a client certificate the `--client-ca-file` bundle verifies (see
 * auth/x509.ts), else a bearer token (token file, then service account JWTs). Every path needs one except the public health and version
 * paths (`/healthz`, `/livez`, `/readyz`, `/version` and their sub-paths). Neither is 401
 * Unauthorized (upstream's Status).
 */
import { unauthorized } from '../../errors/api-error.js';
import type { TLSSocket } from 'node:tls';
import { clientCertificate } from '../../auth/x509.js';
import { ANONYMOUS } from '../../auth/anonymous.js';
import type { ApiContext } from '../context.js';
import type { UserInfo } from '../../auth/user-info.js';

/** Anything that maps an Authorization header to a user (null = not authenticated). */
export interface Authenticator {
  authenticate(authorization: string | undefined): UserInfo | null | Promise<UserInfo | null>;
}

const PUBLIC = [/^\/healthz(\/|$)/, /^\/livez(\/|$)/, /^\/readyz(\/|$)/, /^\/version\/?$/];

/** The second character of every public path: `/h`ealthz, `/l`ivez, `/r`eadyz, `/v`ersion. */
const PUBLIC_SECOND = new Set(['h', 'l', 'r', 'v']);

/** True for paths served without authentication. */
export function isPublicPath(path: string): boolean {
  return PUBLIC_SECOND.has(path[1]!) && PUBLIC.some((re) => re.test(path));
}

/**
 * Authenticate every request but those to public paths. With `anonymous`, a request that
 * carries no credential at all is `system:anonymous` (authorization then decides); a wrong
 * credential (a token nobody knows, a client certificate that does not verify) is still 401,
 * as upstream's fail-on-error union in front of the anonymous authenticator.
 */
export function authentication(authenticator: Authenticator, opts: { readonly anonymous?: boolean } = {}) {
  const anonymous = Boolean(opts.anonymous);
  // Not an async function: a token the authenticator knows at once (the token file) goes on
  // without a promise of its own; one it checks asynchronously (a service account) waits.
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    if (isPublicPath(ctx.path)) return next();
    const header = ctx.get('Authorization') || undefined;
    // Upstream's union authenticator asks the client certificate first, then the token.
    const cert = clientCertificate(ctx.req.socket as TLSSocket);
    if (cert && 'user' in cert) {
      ctx.state.user = { name: cert.user.name, uid: '', groups: [...cert.user.groups, 'system:authenticated'] };
      return next();
    }
    const failed = Boolean(header) || Boolean(cert && 'error' in cert);
    const found = authenticator.authenticate(header);
    if (found instanceof Promise) return found.then((user) => proceed(ctx, next, user, anonymous && !failed));
    return proceed(ctx, next, found, anonymous && !failed);
  };
}

/** Go on as `user`, else as system:anonymous when `anonymous`, else 401. */
function proceed(ctx: ApiContext, next: () => Promise<void>, user: UserInfo | null, anonymous: boolean): Promise<void> {
  const who = user ?? (anonymous ? ANONYMOUS : null);
  if (!who) throw unauthorized();
  ctx.state.user = who;
  return next();
}
