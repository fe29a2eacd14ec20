/**
 * Several request authenticators asked in order, the first that names a user deciding
 * (upstream pkg/authentication/request/union): the token file, then service account tokens.
 */
import type { UserInfo } from './user-info.js';

/** Maps an Authorization header to a user (null = not this authenticator's credential). */
export interface RequestAuthenticator {
  authenticate(authorization: string | undefined): UserInfo | null | Promise<UserInfo | null>;
}

export function unionAuthenticator(authenticators: readonly RequestAuthenticator[]): RequestAuthenticator {
  return {
    async authenticate(authorization) {
      for (const a of authenticators) {
        const user = await a.authenticate(authorization);
        if (user) return user;
      }
      return null;
    },
  };
}
