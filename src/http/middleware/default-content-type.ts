/**
 * A request body without a `Content-Type` is JSON (upstream negotiate.go
 * NegotiateInputSerializerForMediaType: an empty media type takes the first supported
 * serializer, JSON), for every method but PATCH, whose handler accepts only the patch media
 * types and answers 415 without one (upstream patch.go). Set before the body is read, so the
 * body reader reads it and every later step sees `application/json`.
 */
import type { Middleware } from 'koa';

export function defaultContentType(): Middleware {
  return (ctx, next) => {
    const headers = ctx.req.headers;
    if (headers['content-type'] === undefined && ctx.method !== 'PATCH') headers['content-type'] = 'application/json';
    return next();
  };
}
