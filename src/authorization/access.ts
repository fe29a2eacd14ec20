/**
 * The server's authorizer and authenticator as the review kinds use them (see
 * registry/access.ts): a decision as allowed/denied/reason (upstream
 * SubjectAccessReviewStatus), the rules a user holds (from RBAC; incomplete without it), the
 * user of a bearer token, and the service account token issuer.
 */
import type { AccessServices, ReviewedRule, TokenIssuer, WriterInfo } from '../registry/access.js';
import type { RbacAuthorizer } from './rbac/rbac-authorizer.js';
import type { Authorizer } from './types.js';

/** Reviews a bearer token for audiences (auth/audiences.ts AudienceTokenAuthenticator). */
interface TokenReviewer {
  reviewToken(
    token: string,
    audiences: readonly string[],
  ): Promise<{ user?: WriterInfo; audiences?: readonly string[]; error?: string } | null>;
}

export function accessServices(
  authorizer: Authorizer,
  rbac: RbacAuthorizer | undefined,
  tokens: TokenReviewer,
  serviceAccountTokens?: TokenIssuer,
): AccessServices {
  return {
    authorize(req) {
      const { decision, reason } = authorizer.authorize(req);
      return { allowed: decision === 'allow', denied: decision === 'deny', reason };
    },
    rulesFor(user, namespace) {
      if (!rbac) return { rules: [], incomplete: true };
      const rules: ReviewedRule[] = rbac.rulesFor(user, namespace).map((r) => ({ ...r, verbs: r.verbs ?? [] }));
      return { rules, incomplete: false };
    },
    reviewToken: (token, audiences) => tokens.reviewToken(token, audiences),
    serviceAccountTokens,
  };
}
