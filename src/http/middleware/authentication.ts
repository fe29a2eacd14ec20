/**
 * Bearer-token authentication: every path needs a valid token except the public health,
 * version and metrics-free paths (`/healthz`, `/livez`, `/readyz`, `/version` and their
 * sub-paths). A missing or wrong token is 401 Unauthorized (upstream's Status).
 */
import { unauthorized } from '../../errors/api-error.js';
import type { ApiContext, UserInfo } from '../context.js';

/** Anything that maps an Authorization header to a user (null = not authenticated). */
export interface Authenticator {
  authenticate(authorization: string | undefined): UserInfo | null;
}

const PUBLIC = [/^\/healthz(\/|$)/, /^\/livez(\/|$)/, /^\/readyz(\/|$)/, /^\/version\/?$/];

/** True for paths served without authentication. */
export function isPublicPath(path: string): boolean {
  return PUBLIC.some((re) => re.test(path));
}

export function authentication(authenticator: Authenticator) {
  return async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    if (!isPublicPath(ctx.path)) {
      const user = authenticator.authenticate(ctx.get('Authorization') || undefined);
      if (!user) throw unauthorized();
      ctx.state.user = user;
    }
    await next();
  };
}
