/**
 * SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview (upstream
 * pkg/registry/authorization/*subjectaccessreview and pkg/apis/authorization/validation): the
 * configured authorizer's decision for the given user (or the requester), answered as the
 * review with `status` {allowed, denied, reason}, 201, nothing stored.
 */
import type { ApiObject } from '../../api/object.js';
import { badRequest, invalid } from '../../errors/api-error.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import type { AccessRequest, WriterInfo } from '../../registry/access.js';
import type { CreateOverride, CreateRequest, KindObject } from '../../registry/types.js';
import type { selfSubjectAccessReviewSchema, subjectAccessReviewSchema } from './reviews.schema.js';
import { answered, requester } from './review-answer.js';

/** A SubjectAccessReview (and LocalSubjectAccessReview) as its schema describes it. */
type SubjectAccessReview = KindObject<typeof subjectAccessReviewSchema>;
/** A SelfSubjectAccessReview as its schema describes it. */
type SelfSubjectAccessReview = KindObject<typeof selfSubjectAccessReviewSchema>;
/** The spec of an access review (a self review's has no subject). */
type Spec = SubjectAccessReview['spec'];

const show = (v: unknown) => (v === undefined || v === null ? 'null' : JSON.stringify(v));

/** Upstream ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function validateSpec(spec: Spec, needsSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec.nonResourceAttributes',
      message: `Invalid value: ${show(spec.nonResourceAttributes)}: cannot be specified in combination with resourceAttributes`,
    });
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec.resourceAttributes',
      message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    });
  }
  if (needsSubject && !spec.user && !spec.groups?.length) {
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec.user',
      message: 'Invalid value: "": at least one of user or group must be specified',
    });
  }
  return errs;
}

/** The request a review asks about. */
function accessRequest(spec: Spec, user: WriterInfo): AccessRequest {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      isResourceRequest: true,
      path: '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      namespace: r.namespace ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return {
    user,
    verb: n.verb ?? '',
    isResourceRequest: false,
    path: n.path ?? '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** The answered review: the authorizer's decision as `status`. */
function answer<T extends ApiObject>(
  req: CreateRequest<T, T>,
  user: WriterInfo,
  spec: Spec,
): { code: number; body: unknown } {
  if (!req.access) throw badRequest('no authorizer is configured');
  const { allowed, denied, reason } = req.access.authorize(accessRequest(spec, user));
  return answered(req, { allowed, ...(denied ? { denied } : {}), ...(reason ? { reason } : {}) });
}

/** The metadata rule of the cluster-scoped reviews (upstream: `metadata: Invalid value: ...: must be empty`). */
function emptyMeta(obj: ApiObject, allowNamespace: boolean): FieldError[] {
  const { namespace, ...rest } = obj.metadata ?? {};
  const extra = Object.entries(rest).filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (extra.length === 0 && (allowNamespace || !namespace)) return [];
  return [
    {
      reason: 'FieldValueInvalid',
      field: 'metadata',
      message: `Invalid value: ${show(obj.metadata)}: must be empty${allowNamespace ? ' except for namespace' : ''}`,
    },
  ];
}

/** SubjectAccessReview: about `spec.user` / `spec.groups`. */
export function subjectAccessReviewCreate(group: string): CreateOverride<SubjectAccessReview, SubjectAccessReview> {
  return async (req) => {
    const spec: Spec = req.body.spec;
    const errs = [...emptyMeta(req.body, false), ...validateSpec(spec, true)];
    if (errs.length) throw invalid('SubjectAccessReview', '', errs, group);
    return answer(req, { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [] }, spec);
  };
}

/** SelfSubjectAccessReview: about the requester. */
export function selfSubjectAccessReviewCreate(
  group: string,
): CreateOverride<SelfSubjectAccessReview, SelfSubjectAccessReview> {
  return async (req) => {
    const spec: Spec = req.body.spec;
    const errs = [...emptyMeta(req.body, false), ...validateSpec(spec, false)];
    if (errs.length) throw invalid('SelfSubjectAccessReview', '', errs, group);
    return answer(req, requester(req), {
      resourceAttributes: spec.resourceAttributes,
      nonResourceAttributes: spec.nonResourceAttributes,
    });
  };
}

/** LocalSubjectAccessReview: a SubjectAccessReview confined to the request's namespace. */
export function localSubjectAccessReviewCreate(
  group: string,
): CreateOverride<SubjectAccessReview, SubjectAccessReview> {
  return async (req) => {
    const spec: Spec = req.body.spec;
    const errs = [...emptyMeta(req.body, true), ...validateSpec(spec, true)];
    if (spec.resourceAttributes && spec.resourceAttributes.namespace !== req.namespace) {
      errs.push({
        reason: 'FieldValueInvalid',
        field: 'spec.resourceAttributes.namespace',
        message: `Invalid value: ${show(spec.resourceAttributes.namespace ?? '')}: must match metadata.namespace`,
      });
    }
    if (spec.nonResourceAttributes) {
      errs.push({
        reason: 'FieldValueInvalid',
        field: 'spec.nonResourceAttributes',
        message: `Invalid value: ${show(spec.nonResourceAttributes)}: disallowed on this kind of request`,
      });
    }
    if (errs.length) throw invalid('LocalSubjectAccessReview', '', errs, group);
    return answer(req, { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [] }, spec);
  };
}
