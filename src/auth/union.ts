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
  /** The first answer naming a user from authenticator `first` on: at once while they answer at once. */
  const from = (first: number, authorization: string | undefined): UserInfo | null | Promise<UserInfo | null> => {
    for (let i = first; i < authenticators.length; i++) {
      const user = authenticators[i]!.authenticate(authorization);
      if (user instanceof Promise) return user.then((u) => u ?? from(i + 1, authorization));
      if (user) return user;
    }
    return null;
  };
  return { authenticate: (authorization) => from(0, authorization) };
}
