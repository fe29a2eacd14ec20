/**
 * AdmissionReview requests and responses (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/request/admissionreview.go): the first of the webhook's
 * admissionReviewVersions we know (v1, v1beta1) is sent; the response is checked as upstream
 * checks it (v1: a response, its uid, apiVersion and kind; patch and patchType together for a
 * mutating webhook, neither for a validating one; v1beta1: a response, any patch is a JSON
 * patch). Fields are written in upstream's JSON order.
 */
import type { ApiObject } from '../../api/object.js';
import { isRecord } from '../../api/json.js';
import type { Webhook } from '../../resources/webhook-common/webhook.schema.js';
import type { AdmissionRequest, WebhookInvocation } from './types.js';

export type ReviewVersion = 'v1' | 'v1beta1';

/** The AdmissionReview version to send: the first known of admissionReviewVersions, else null. */
export function reviewVersionFor(webhook: Webhook): ReviewVersion | null {
  for (const v of webhook.admissionReviewVersions ?? []) if (v === 'v1' || v === 'v1beta1') return v;
  return null;
}

/** The objects as the invocation's version presents them (null where the request has none). */
export interface VersionedObjects {
  readonly object: ApiObject | null;
  readonly oldObject: ApiObject | null;
}

/**
 * The `request` of an AdmissionReview (AdmissionRequest): uid, the kind and resource the
 * webhook is called with, those the request addressed, name, namespace, operation, userInfo,
 * the objects, dryRun and the operation's options.
 */
export function admissionRequest(
  uid: string,
  inv: Pick<WebhookInvocation, 'kind' | 'resource' | 'subresource'>,
  req: AdmissionRequest,
  objects: VersionedObjects,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uid,
    kind: { group: inv.kind.group, version: inv.kind.version, kind: inv.kind.kind },
    resource: { group: inv.resource.group, version: inv.resource.version, resource: inv.resource.resource },
  };
  if (inv.subresource) out.subResource = inv.subresource;
  out.requestKind = { group: req.kind.group, version: req.kind.version, kind: req.kind.kind };
  out.requestResource = { group: req.resource.group, version: req.resource.version, resource: req.resource.resource };
  if (req.subresource) out.requestSubResource = req.subresource;
  if (req.name) out.name = req.name;
  if (req.namespace) out.namespace = req.namespace;
  out.operation = req.operation;
  out.userInfo = userInfoOf(req);
  out.object = objects.object;
  out.oldObject = objects.oldObject;
  out.dryRun = req.attrs.dryRun;
  out.options = req.attrs.options ?? null;
  return out;
}

/** authentication.k8s.io/v1 UserInfo of the writer (empty fields left out, as upstream's omitempty). */
function userInfoOf(req: AdmissionRequest): Record<string, unknown> {
  const user = req.attrs.user;
  const out: Record<string, unknown> = {};
  if (!user) return out;
  if (user.name) out.username = user.name;
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  const extra = Object.entries(user.extra ?? {});
  if (extra.length) out.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  return out;
}

/** The AdmissionReview body to send. */
export function admissionReview(version: ReviewVersion, request: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

/** What a webhook answered (upstream request.AdmissionResponse). */
export interface AdmissionResponse {
  readonly allowed: boolean;
  /** The decoded JSON patch text, '' when none. */
  readonly patch: string;
  /** 'JSONPatch' when a patch is given (v1beta1 responses are pinned to it), else ''. */
  readonly patchType: string;
  /** The status of a refusal (`response.status`, a metav1.Status), if any. */
  readonly result: unknown;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** Thrown for a response upstream refuses; the message is upstream's. */
export class InvalidResponseError extends Error {}

/** `group/version, Kind=kind` (schema.GroupVersionKind.String). */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/**
 * Check a decoded AdmissionReview as upstream's VerifyAdmissionResponse does. Throws
 * InvalidResponseError with upstream's message (`webhook response was absent`, `expected
 * response.uid="<uid>", got "<uid>"`, `expected webhook response of admission.k8s.io/v1,
 * Kind=AdmissionReview, got ...`, patch and patchType rules).
 */
export function verifyAdmissionResponse(
  version: ReviewVersion,
  uid: string,
  mutating: boolean,
  review: Record<string, unknown>,
): AdmissionResponse {
  const r = review.response;
  if (!isRecord(r)) throw new InvalidResponseError('webhook response was absent');
  const base = {
    allowed: r.allowed === true,
    result: r.status,
    warnings: Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === 'string') : [],
    auditAnnotations: stringMap(r.auditAnnotations),
  };
  const patch = typeof r.patch === 'string' ? Buffer.from(r.patch, 'base64').toString('utf8') : '';
  if (version === 'v1beta1') {
    const p = mutating ? patch : '';
    return { ...base, patch: p, patchType: p ? 'JSONPatch' : '' };
  }
  const got = typeof r.uid === 'string' ? r.uid : '';
  if (got !== uid)
    throw new InvalidResponseError(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(got)}`);
  if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview')
    throw new InvalidResponseError(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(review.apiVersion, review.kind)}`,
    );
  const patchType = r.patchType;
  if (!mutating) {
    if (patch) throw new InvalidResponseError('validating webhook may not return response.patch');
    if (patchType !== undefined && patchType !== null)
      throw new InvalidResponseError('validating webhook may not return response.patchType');
    return { ...base, patch: '', patchType: '' };
  }
  const hasType = patchType !== undefined && patchType !== null;
  if (patch && !hasType) throw new InvalidResponseError('webhook returned response.patch but not response.patchType');
  if (!patch && hasType) throw new InvalidResponseError('webhook returned response.patchType but not response.patch');
  if (hasType && (typeof patchType !== 'string' || patchType === ''))
    throw new InvalidResponseError(`webhook returned invalid response.patchType of ${JSON.stringify(patchType)}`);
  return { ...base, patch, patchType: typeof patchType === 'string' ? patchType : '' };
}

function stringMap(v: unknown): Record<string, string> {
  if (!isRecord(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}
