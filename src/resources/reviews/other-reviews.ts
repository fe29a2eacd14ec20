/**
 * SelfSubjectRulesReview (upstream pkg/registry/authorization/selfsubjectrulesreview): the
 * rules the requester holds in `spec.namespace`; SelfSubjectReview (authentication, `kubectl
 * auth whoami`): who the requester is; TokenReview (pkg/registry/authentication/tokenreview):
 * whom a bearer token authenticates. All answer 201 with `status` and store nothing.
 */
import { badRequest } from '../../errors/api-error.js';
import type { ReviewedRule } from '../../registry/access.js';
import type { CreateOverride, KindObject } from '../../registry/types.js';
import type { selfSubjectRulesReviewSchema, tokenReviewSchema } from './reviews.schema.js';

/** A SelfSubjectRulesReview as its schema describes it. */
type SelfSubjectRulesReview = KindObject<typeof selfSubjectRulesReviewSchema>;
/** A TokenReview as its schema describes it. */
type TokenReview = KindObject<typeof tokenReviewSchema>;
import { answered, requester, userInfoOf } from './review-answer.js';

const resourceRule = (r: ReviewedRule) => ({
  verbs: r.verbs,
  ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
  ...(r.resources ? { resources: r.resources } : {}),
  ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
});

/** SelfSubjectRulesReview. 400 `no namespace on request` without spec.namespace, as upstream. */
export const selfSubjectRulesReviewCreate: CreateOverride<SelfSubjectRulesReview, SelfSubjectRulesReview> = async (
  req,
) => {
  const namespace = req.body.spec.namespace ?? '';
  if (!namespace) throw badRequest('no namespace on request');
  if (!req.access) throw badRequest('no authorizer is configured');
  const { rules, incomplete } = req.access.rulesFor(requester(req), namespace);
  return answered(req, {
    resourceRules: rules.filter((r) => r.resources?.length).map(resourceRule),
    nonResourceRules: rules
      .filter((r) => r.nonResourceURLs?.length)
      .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
    incomplete,
  });
};

/** SelfSubjectReview: `status.userInfo` of the requester. */
export const selfSubjectReviewCreate: CreateOverride = async (req) => {
  const user = requester(req);
  return answered(req, { userInfo: userInfoOf(user) });
};

/**
 * TokenReview. 400 without a token, as upstream. The token is authenticated for
 * `spec.audiences` (none: the API's own audiences): a token valid for none of them is not
 * authenticated (`status.error` says why when the token is ours), and `status.audiences` names
 * those it holds for.
 */
export function tokenReviewCreate(groupVersion: string): CreateOverride<TokenReview, TokenReview> {
  return async (req) => {
    const spec = req.body.spec;
    if (!spec.token) throw badRequest(`token is required for TokenReview in ${groupVersion}`);
    if (!req.access) throw badRequest('no authenticator is configured');
    const res = await req.access.reviewToken(spec.token, spec.audiences ?? []);
    if (!res?.user) return answered(req, { user: {}, ...(res?.error ? { error: res.error } : {}) });
    return answered(req, {
      authenticated: true,
      user: userInfoOf(res.user),
      ...(res.audiences?.length ? { audiences: res.audiences } : {}),
    });
  };
}
