/**
 * HTTP/2 request bodies without a content-length. HTTP/2 frames a body in DATA frames, so a
 * client may stream one without announcing its length; body readers written for HTTP/1.1
 * (koa-bodyparser through type-is `hasBody`) look for `content-length` or `transfer-encoding`
 * and would read such a body as empty. A request whose stream did not end with its headers is
 * marked as framed, so they read it; one with no body at all skips the text body parser.
 */
import type { Middleware } from 'koa';

export function http2Body(): Middleware {
  return (ctx, next) => {
    const req = ctx.req as typeof ctx.req & { stream?: { endAfterHeaders?: boolean } };
    if (
      req.httpVersionMajor >= 2 &&
      req.headers['content-length'] === undefined &&
      req.stream &&
      !req.stream.endAfterHeaders
    ) {
      req.headers['transfer-encoding'] = 'chunked';
    }
    // A request with no body at all (type-is `hasBody`: neither header): the text body parser
    // would only find that out, so it is told to stand aside (koa-bodyparser's documented
    // `ctx.disableBodyParser`); the body is empty either way.
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined)
      (ctx as { disableBodyParser?: boolean }).disableBodyParser = true;
    return next();
  };
}
