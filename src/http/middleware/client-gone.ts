/**
 * Stop a request before its handler when nobody will read the answer: its client went away
 * (HTTP/2 stream reset, connection closed) or its deadline passed (it was answered 504). No
 * storage work is started for it. Upstream's handlers stop the same way on the request
 * context (pkg/endpoints/handlers/finisher: `request did not complete within requested timeout
 * - context canceled` / `- context deadline exceeded`, 504 Timeout); that error is what the
 * request's metrics and audit record, the client having been answered or gone already.
 */
import { timeout } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { clientGone } from './request-body-state.js';
import { deadlineOf } from './request-deadline.js';

/** The middleware; place it last before the handlers. */
export function stopWhenAbandoned() {
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    if (deadlineOf(ctx)?.expired)
      throw timeout('request did not complete within requested timeout - context deadline exceeded');
    if (clientGone(ctx.req)) throw timeout('request did not complete within requested timeout - context canceled');
    return next();
  };
}
