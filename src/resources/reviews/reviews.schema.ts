/**
 * The review kinds' fields (authorization.k8s.io/v1 SubjectAccessReview family and
 * SelfSubjectRulesReview; authentication.k8s.io/v1 SelfSubjectReview and TokenReview).
 * Only `spec` is read; `status` is the server's answer.
 */
import { z } from 'zod';
import { kindSchema } from '../../api/meta-schema.js';

const strList = z.array(z.string()).optional();

const resourceAttributes = z.looseObject({
  namespace: z.string().optional(),
  verb: z.string().optional(),
  group: z.string().optional(),
  version: z.string().optional(),
  resource: z.string().optional(),
  subresource: z.string().optional(),
  name: z.string().optional(),
});

const nonResourceAttributes = z.looseObject({ path: z.string().optional(), verb: z.string().optional() });

/** SubjectAccessReview / LocalSubjectAccessReview spec. */
export const subjectAccessReviewSchema = kindSchema({
  spec: z.looseObject({
    resourceAttributes: resourceAttributes.optional(),
    nonResourceAttributes: nonResourceAttributes.optional(),
    user: z.string().optional(),
    groups: strList,
    uid: z.string().optional(),
  }),
  status: z.unknown().optional(),
});

/** SelfSubjectAccessReview spec. */
export const selfSubjectAccessReviewSchema = kindSchema({
  spec: z.looseObject({
    resourceAttributes: resourceAttributes.optional(),
    nonResourceAttributes: nonResourceAttributes.optional(),
  }),
  status: z.unknown().optional(),
});

/** SelfSubjectRulesReview spec. */
export const selfSubjectRulesReviewSchema = kindSchema({
  spec: z.looseObject({ namespace: z.string().optional() }),
  status: z.unknown().optional(),
});

/** SelfSubjectReview (no spec). */
export const selfSubjectReviewSchema = kindSchema({ status: z.unknown().optional() });

/** TokenReview spec. */
export const tokenReviewSchema = kindSchema({
  spec: z.looseObject({ token: z.string().optional(), audiences: strList }),
  status: z.unknown().optional(),
});

export type ResourceAttributes = z.infer<typeof resourceAttributes>;
export type NonResourceAttributes = z.infer<typeof nonResourceAttributes>;
