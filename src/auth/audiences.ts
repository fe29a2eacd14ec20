/**
 * Token authentication for named audiences, as TokenReview asks for it (upstream
 * k8s.io/apiserver pkg/authentication/authenticator audiences.go and
 * pkg/registry/authentication/tokenreview): a token is authenticated for a set of audiences only
 * when the audiences it is valid for intersect them, and the answer names the intersection.
 * Authenticators that know no audiences (the token file) are valid for the API's own audiences
 * (`--api-audiences`) alone (upstream WrapAudienceAgnosticToken).
 */
import type { UserInfo } from './user-info.js';
import type { RequestAuthenticator } from './union.js';

/** What a token authenticates as for some audiences (upstream authenticator.Response plus its error). */
export interface TokenResponse {
  /** The user; absent when the token is not authenticated for the audiences. */
  readonly user?: UserInfo;
  /** The audiences the token is valid for among those asked. */
  readonly audiences?: readonly string[];
  /** Why a token of this authenticator was refused (TokenReview's `status.error`). */
  readonly error?: string;
}

/** Authenticates a bare token for `audiences`; null when the token is not this authenticator's. */
export interface AudienceTokenAuthenticator {
  reviewToken(token: string, audiences: readonly string[]): Promise<TokenResponse | null>;
}

/** The members of `a` that `b` holds, in `a`'s order (upstream Audiences.Intersect). */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/** A []string as Go's `%q` prints it: `["a" "b"]`. */
export const goQuotedList = (list: readonly string[]): string => `[${list.map((v) => JSON.stringify(v)).join(' ')}]`;

/**
 * An authenticator that knows no audiences, valid for `implicit` (the API's audiences) only:
 * asked for audiences none of which is implicit, it authenticates nobody.
 */
export function audienceAgnostic(
  implicit: readonly string[],
  delegate: RequestAuthenticator,
): AudienceTokenAuthenticator {
  return {
    async reviewToken(token, audiences) {
      const user = await delegate.authenticate(`Bearer ${token}`);
      if (!user) return null;
      const audiencesFor = audiences.length ? intersectAudiences(implicit, audiences) : [...implicit];
      if (audiences.length && implicit.length && audiencesFor.length === 0) return null;
      return { user, audiences: audiencesFor };
    },
  };
}

/** Each authenticator in order; the first that authenticates the token, or refuses it with a reason, answers. */
export function unionTokenAuthenticator(list: readonly AudienceTokenAuthenticator[]): AudienceTokenAuthenticator {
  return {
    async reviewToken(token, audiences) {
      let refused: TokenResponse | null = null;
      for (const a of list) {
        const res = await a.reviewToken(token, audiences);
        if (res?.user) return res;
        refused ??= res;
      }
      return refused;
    },
  };
}
