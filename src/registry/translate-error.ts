/**
 * The one translation of storage errors into API errors (upstream
 * k8s.io/apiserver pkg/storage/errors + registry/generic/registry/store.go interpretations).
 */
import {
  alreadyExists,
  ApiError,
  badRequest,
  conflict,
  expired,
  internalError,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  serverTimeout,
  timeout,
} from '../errors/api-error.js';
import { StorageError } from '../storage/storage-error.js';

/** What the failing operation was about: resource (plural), group, object name, HTTP verb. */
export interface ErrorContext {
  readonly resource: string;
  readonly group: string;
  readonly name: string;
  readonly operation: 'GET' | 'LIST' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'WATCH';
}

/** Map any error raised below the registry to an ApiError; ApiErrors pass through unchanged. */
export function toApiError(err: unknown, ctx: ErrorContext): ApiError {
  if (err instanceof ApiError) return err;
  if (!(err instanceof StorageError)) return internalError(err instanceof Error ? err.message : String(err));
  switch (err.code) {
    case 'KeyNotFound':
      return notFound(ctx.resource, ctx.name, ctx.group);
    case 'KeyExists':
      return alreadyExists(ctx.resource, ctx.name, ctx.group);
    case 'Conflict':
      return conflict(ctx.resource, ctx.name, err.message.startsWith('Precondition') ? err.message : OPTIMISTIC_LOCK_MESSAGE, ctx.group);
    case 'Expired':
      return expired(
        ctx.operation === 'WATCH'
          ? 'The resourceVersion for the provided watch is too old.'
          : 'The resourceVersion for the provided list is too old.',
      );
    case 'TooLargeResourceVersion':
      return timeout(`Too large resource version: ${err.message}`, 1);
    case 'InvalidArgument':
      return badRequest(err.message.startsWith('continue key') ? `invalid continue token: ${err.message}` : err.message);
    case 'Unreachable':
      return serverTimeout(ctx.group ? `${ctx.resource}.${ctx.group}` : ctx.resource, ctx.operation, 2);
    case 'Internal':
      return internalError(err.message);
  }
}
