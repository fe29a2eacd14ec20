/**
 * The review kinds, create only and never stored, each served under upstream's group and ours:
 * authorization.k8s.io / authorization.ck.io (SubjectAccessReview, SelfSubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectRulesReview) and authentication.k8s.io /
 * authentication.ck.io (SelfSubjectReview, TokenReview).
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { defineResource } from '../define.js';
import {
  localSubjectAccessReviewCreate,
  selfSubjectAccessReviewCreate,
  subjectAccessReviewCreate,
} from './access-reviews.js';
import { selfSubjectReviewCreate, selfSubjectRulesReviewCreate, tokenReviewCreate } from './other-reviews.js';
import { authenticationMessages, authorizationMessages } from './reviews.protobuf.js';
import {
  selfSubjectAccessReviewSchema,
  selfSubjectReviewSchema,
  selfSubjectRulesReviewSchema,
  subjectAccessReviewSchema,
  tokenReviewSchema,
} from './reviews.schema.js';

function authorizationKinds(group: string): ResourceDefinition[] {
  const common = { group, namespaced: false, verbs: ['create'] as const, protobuf: authorizationMessages(group) };
  return [
    defineResource({
      ...common,
      kind: 'LocalSubjectAccessReview',
      plural: 'localsubjectaccessreviews',
      namespaced: true,
      schema: subjectAccessReviewSchema,
      create: localSubjectAccessReviewCreate(group),
      description:
        'LocalSubjectAccessReview checks whether a user or group can perform an action in a given namespace.',
    }),
    defineResource({
      ...common,
      kind: 'SelfSubjectAccessReview',
      plural: 'selfsubjectaccessreviews',
      schema: selfSubjectAccessReviewSchema,
      create: selfSubjectAccessReviewCreate(group),
      description: 'SelfSubjectAccessReview checks whether the current user can perform an action.',
    }),
    defineResource({
      ...common,
      kind: 'SelfSubjectRulesReview',
      plural: 'selfsubjectrulesreviews',
      schema: selfSubjectRulesReviewSchema,
      create: selfSubjectRulesReviewCreate,
      description: 'SelfSubjectRulesReview enumerates the actions the current user can perform within a namespace.',
    }),
    defineResource({
      ...common,
      kind: 'SubjectAccessReview',
      plural: 'subjectaccessreviews',
      schema: subjectAccessReviewSchema,
      create: subjectAccessReviewCreate(group),
      description: 'SubjectAccessReview checks whether a user or group can perform an action.',
    }),
  ];
}

function authenticationKinds(group: string): ResourceDefinition[] {
  const common = { group, namespaced: false, verbs: ['create'] as const, protobuf: authenticationMessages(group) };
  return [
    defineResource({
      ...common,
      kind: 'SelfSubjectReview',
      plural: 'selfsubjectreviews',
      schema: selfSubjectReviewSchema,
      create: selfSubjectReviewCreate,
      description: 'SelfSubjectReview returns the user information the server has for the requester.',
    }),
    defineResource({
      ...common,
      kind: 'TokenReview',
      plural: 'tokenreviews',
      schema: tokenReviewSchema,
      create: tokenReviewCreate(`${group}/v1`),
      description: 'TokenReview attempts to authenticate a token to a known user.',
    }),
  ];
}

/** Every review definition, ours first then upstream's group names. */
export const reviewKinds: readonly ResourceDefinition[] = [
  ...authorizationKinds('authorization.ck.io'),
  ...authenticationKinds('authentication.ck.io'),
  ...authorizationKinds('authorization.k8s.io'),
  ...authenticationKinds('authentication.k8s.io'),
];
