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

/** True for paths served without authentication. */
export function isPublicPath(path: string): boolean {
  return PUBLIC.some((re) => re.test(path));
}

/**
 * Authenticate every request but those to public paths. With `anonymous`, a request that
 * carries no credential at all is `system:anonymous` (authorization then decides); a wrong
 * credential (a token nobody knows, a client certificate that does not verify) is still 401,
 * as upstream's fail-on-error union in front of the anonymous authenticator.
 */
export function authentication(authenticator: Authenticator, opts: { readonly anonymous?: boolean } = {}) {
  return async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    if (!isPublicPath(ctx.path)) {
      const header = ctx.get('Authorization') || undefined;
      // Upstream's union authenticator asks the client certificate first, then the token.
      const cert = clientCertificate(ctx.req.socket as TLSSocket);
      const certUser =
        cert && 'user' in cert
          ? { name: cert.user.name, uid: '', groups: [...cert.user.groups, 'system:authenticated'] }
          : null;
      const failed = Boolean(header) || Boolean(cert && 'error' in cert);
      const user =
        certUser ?? (await authenticator.authenticate(header)) ?? (opts.anonymous && !failed ? ANONYMOUS : null);
      if (!user) throw unauthorized();
      ctx.state.user = user;
    }
    await next();
  };
}
