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
  requestEntityTooLarge,
  serviceUnavailable,
  timeout,
} from '../errors/api-error.js';
import { StorageError } from '../storage/storage-error.js';
import type { Operation } from './types.js';

/** Upstream 1.12+ message of a 410 for an expired continue token (k8s.io/apiserver pkg/storage/etcd3/errors.go). */
export const EXPIRED_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** What the failing operation was about: resource (plural), group, object name, HTTP verb. */
export interface ErrorContext {
  readonly resource: string;
  readonly group: string;
  readonly name: string;
  readonly operation: Operation;
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
      return conflict(
        ctx.resource,
        ctx.name,
        err.message.startsWith('Precondition') ? err.message : OPTIMISTIC_LOCK_MESSAGE,
        ctx.group,
      );
    case 'Expired':
      if (err.continueToken) return expired(EXPIRED_CONTINUE_MESSAGE, { continue: err.continueToken });
      // The watch cache's own message (upstream cacher: "too old resource version: N (M)").
      if (err.message.startsWith('too old resource version')) return expired(err.message);
      return expired(
        ctx.operation === 'WATCH'
          ? 'The resourceVersion for the provided watch is too old.'
          : 'The resourceVersion for the provided list is too old.',
      );
    case 'TooLargeResourceVersion':
      return timeout(`Too large resource version: ${err.message.replace(/^.*?(\d+, current: \d+).*$/, '$1')}`, 1);
    case 'InvalidArgument':
      return badRequest(
        err.message.startsWith('continue key') ? `invalid continue token: ${err.message}` : err.message,
      );
    case 'Unreachable':
      // Storage did not answer in time (504) or refused (503); both carry Retry-After.
      return /deadline|timed? ?out/i.test(err.message)
        ? timeout(`request did not complete within the storage deadline: ${err.message}`, 2)
        : serviceUnavailable(`storage is unavailable: ${err.message}`, 2);
    case 'RequestTooLarge':
      // 413 as upstream since 1.11 (kubernetes/kubernetes#74600: 1.10 answered 500).
      return requestEntityTooLarge(err.message.replace(/^\d+ [A-Z_]+: /, ''));
    case 'Internal':
      return internalError(err.message);
  }
}
