/**
 * The Status object (meta/v1) returned for every API error and for some successes.
 * Field order follows upstream's JSON encoding: kind, apiVersion, metadata, status, message,
 * reason, details, code (k8s.io/apimachinery pkg/apis/meta/v1/types.go).
 */

/** Every upstream Status reason (k8s.io/apimachinery pkg/apis/meta/v1/types.go StatusReason*). */
export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable'
  | '';

/** Reasons of one field problem inside an Invalid Status (field.ErrorType strings). */
export type CauseReason =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  /** A value of the wrong type (upstream field.TypeInvalid, CRD schema validation). */
  | 'FieldValueTypeInvalid'
  | 'InternalError'
  | 'UnexpectedServerResponse'
  | 'FieldValueUnknown'
  /** Server-side apply: a field another manager owns (upstream metav1.CauseTypeFieldManagerConflict). */
  | 'FieldManagerConflict'
  /** An eviction a PodDisruptionBudget forbids (upstream policyv1.DisruptionBudgetCause). */
  | 'DisruptionBudget';

export interface StatusCause {
  reason?: CauseReason;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** Usually the resource (plural); the Kind for Invalid. */
  kind?: string;
  uid?: string | null;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { selfLink?: string; resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

/** Whether `body` (an object, or a Status answered instead of one) is a Status. */
export function isStatus<T extends { readonly kind?: string }>(body: T | Status): body is Status {
  return body.kind === 'Status';
}

/** A Success Status as returned by DELETE of an object that is gone (no code, as upstream). */
export function successStatus(details?: StatusDetails, code?: number): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  if (details) s.details = details;
  if (code !== undefined) s.code = code;
  return s;
}
