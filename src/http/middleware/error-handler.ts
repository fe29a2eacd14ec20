/**
 * The one error middleware: every failure below it becomes a Status in the negotiated format
 * (JSON when negotiation itself failed). Unexpected errors are logged with their stack and
 * answered as a 500 InternalError without it.
 */
import type { Logger } from 'pino';
import { ApiError, internalError, requestEntityTooLarge, badRequest } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { negotiate, type Format } from '../negotiation/media-types.js';
import { encodeResponse } from '../negotiation/protobuf.js';
import { wantsPretty } from '../handlers/respond.js';
import { errorMessage } from '../../api/error-message.js';
import { recordOf } from '../../api/json.js';

/** Map errors thrown by Koa middleware (body parser, http-errors) to ApiErrors. */
export function toHttpApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  // What Koa's body parser and http-errors throw: { status, type, message, expose }.
  const e = recordOf(err);
  if (e.status === 413 || e.type === 'entity.too.large') return requestEntityTooLarge('limit is 3145728');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose)
    return badRequest(typeof e.message === 'string' ? e.message : 'bad request');
  return null;
}

export function errorHandler(logger: Logger) {
  return async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    try {
      await next();
    } catch (err) {
      let apiErr = toHttpApiError(err);
      if (!apiErr) {
        logger.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
        apiErr = internalError(errorMessage(err));
      }
      if (ctx.respond === false) return; // a stream already started; it reports its own errors
      let format: Format;
      try {
        format = ctx.state.format ?? negotiate(ctx.get('Accept'));
      } catch {
        format = 'json';
      }
      const status = apiErr.toStatus();
      const retry = status.details?.retryAfterSeconds;
      if (retry) ctx.set('Retry-After', String(retry));
      if (apiErr.code === 403) ctx.set('X-Content-Type-Options', 'nosniff');
      const encoded = encodeResponse(ctx.state.codec, status, format, wantsPretty(ctx));
      ctx.status = apiErr.code;
      ctx.set('Content-Type', encoded.contentType);
      ctx.body = encoded.body;
    }
  };
}
