/** Parses the request path into `ctx.state.requestInfo` for everything after it. */
import type { ApiContext } from '../context.js';
import { parseRequestInfo } from '../request-info.js';

export function requestInfoMiddleware() {
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const watch = ctx.query.watch;
    ctx.state.requestInfo = parseRequestInfo(ctx.method, ctx.path, Array.isArray(watch) ? watch[0] : watch);
    return next();
  };
}
