/**
 * The server's authorizer and authenticator as the review kinds use them (see
 * registry/access.ts): a decision as allowed/denied/reason (upstream
 * SubjectAccessReviewStatus), the rules a user holds (from RBAC; incomplete without it), and
 * the user of a bearer token.
 */
import type { AccessServices, ReviewedRule } from '../registry/access.js';
import type { RbacAuthorizer } from './rbac/rbac-authorizer.js';
import type { Authorizer } from './types.js';

/** Anything that maps an Authorization header to a user (null = not authenticated). */
interface HeaderAuthenticator {
  authenticate(authorization: string | undefined): { name: string; uid: string; groups: readonly string[] } | null;
}

export function accessServices(authorizer: Authorizer, rbac: RbacAuthorizer | undefined, authenticator: HeaderAuthenticator): AccessServices {
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
    authenticateToken: (token) => authenticator.authenticate(`Bearer ${token}`),
  };
}
