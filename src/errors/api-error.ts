/**
 * ApiError: the one error type of the server. Every failure that reaches a client is an
 * ApiError rendered as a Status by the error middleware; nothing else writes error bodies.
 * Constructors mirror upstream's k8s.io/apimachinery pkg/api/errors/errors.go, with the same
 * codes, reasons and message shapes.
 */
import type { Status, StatusDetails, StatusReason } from '../api/status.js';
import type { FieldError } from '../api/validation/field-errors.js';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /** Extra metadata for the Status (e.g. a fresh `continue` on an expired token). */
    readonly statusMetadata: Status['metadata'] = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The Status body for this error (field order as upstream). */
  toStatus(): Status {
    const s: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: this.statusMetadata,
      status: 'Failure',
      message: this.message,
    };
    if (this.reason) s.reason = this.reason;
    if (this.details) s.details = this.details;
    s.code = this.code;
    return s;
  }
}

/** `resource` or `resource.group` as upstream's qualified resource string. */
export function qualifiedResource(resource: string, group = ''): string {
  return group ? `${resource}.${group}` : resource;
}

function describe(resource: string, group: string, name: string): string {
  return name ? `${qualifiedResource(resource, group)} "${name}"` : qualifiedResource(resource, group);
}

/** 404 NotFound: `pods "foo" not found`. */
export function notFound(resource: string, name: string, group = ''): ApiError {
  return new ApiError(
    404,
    'NotFound',
    `${describe(resource, group, name)} not found`,
    detailsOf(resource, group, name),
  );
}

/** 409 AlreadyExists: `pods "foo" already exists`. */
export function alreadyExists(resource: string, name: string, group = '', beingDeleted = false): ApiError {
  const prefix = beingDeleted ? 'object is being deleted: ' : '';
  return new ApiError(
    409,
    'AlreadyExists',
    `${prefix}${describe(resource, group, name)} already exists`,
    detailsOf(resource, group, name),
  );
}

/** Upstream OptimisticLockErrorMsg (k8s.io/apiserver registry/generic/registry/store.go). */
export const OPTIMISTIC_LOCK_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on pods "foo": <reason>`. */
export function conflict(resource: string, name: string, reason: string, group = ''): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${describe(resource, group, name)}: ${reason}`,
    detailsOf(resource, group, name),
  );
}

/** One field problem (defined with the field-error constructors in api/validation/field-errors.ts). */
export type { FieldError };

/**
 * 422 Invalid: `Pod "foo" is invalid: <e1>` or `[e1, e2]`, the kind qualified by its group as
 * upstream's NewInvalid (`DeleteOptions.meta.k8s.io "" is invalid: ...`); details.kind is the Kind.
 */
export function invalid(kind: string, name: string, causes: FieldError[], group = ''): ApiError {
  const parts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const aggregate = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  // Upstream's StatusDetails omits an empty name and group (omitempty).
  const details: StatusDetails = name ? { name, kind, causes } : { kind, causes };
  if (group) details.group = group;
  return new ApiError(
    422,
    'Invalid',
    `${qualifiedResource(kind, group)}${kind && name !== undefined ? ` "${name}"` : ''} is invalid: ${aggregate}`,
    details,
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function unauthorized(message = 'Unauthorized'): ApiError {
  return new ApiError(401, 'Unauthorized', message);
}

export function forbidden(resource: string, name: string, reason: string, group = ''): ApiError {
  const what = name ? `${qualifiedResource(resource, group)} "${name}"` : qualifiedResource(resource, group);
  return new ApiError(403, 'Forbidden', `${what} is forbidden: ${reason}`, detailsOf(resource, group, name));
}

/** 405 MethodNotAllowed at the route level. */
export function methodNotAllowed(
  message = 'the server does not allow this method on the requested resource',
): ApiError {
  return new ApiError(405, 'MethodNotAllowed', message);
}

export function notAcceptable(accepted: readonly string[]): ApiError {
  return new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

export function unsupportedMediaType(contentType: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    contentType ? { causes: [{ reason: 'UnexpectedServerResponse', message: contentType }] } : undefined,
  );
}

export function requestEntityTooLarge(message: string): ApiError {
  return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** 410 Expired (resource version compacted or continue token expired). */
export function expired(message: string, metadata: Status['metadata'] = {}): ApiError {
  return new ApiError(410, 'Expired', message, undefined, metadata);
}

/** 500 InternalError: `Internal error occurred: <err>` with the text as the first cause. */
export function internalError(err: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${err}`, {
    causes: [{ message: err }],
  });
}

/** 500 ServerTimeout: `The <op> operation against <resource> could not be completed ...`. */
export function serverTimeout(resource: string, operation: string, retryAfterSeconds: number): ApiError {
  return new ApiError(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${resource} could not be completed at this time, please try again.`,
    { name: operation, kind: resource, retryAfterSeconds },
  );
}

/** 504 Timeout: `Timeout: <message>`. */
export function timeout(message: string, retryAfterSeconds = 0): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: ${message}`, retryAfterSeconds ? { retryAfterSeconds } : undefined);
}

export function serviceUnavailable(message: string, retryAfterSeconds?: number): ApiError {
  return new ApiError(503, 'ServiceUnavailable', message, retryAfterSeconds ? { retryAfterSeconds } : undefined);
}

function detailsOf(resource: string, group: string, name: string): StatusDetails {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (group) d.group = group;
  d.kind = resource;
  return d;
}
