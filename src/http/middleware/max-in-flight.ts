/**
 * Max-in-flight limits (upstream k8s.io/apiserver pkg/server/filters/maxinflight.go): at most
 * `readOnly` non-mutating and `mutating` mutating requests at once; long-running requests
 * (watches, proxy, exec, attach, portforward, log) are exempt. Excess requests get 429
 * TooManyRequests with `Retry-After: 1`. A request's slot is freed once, when it completes or
 * when its deadline passes (request-deadline.ts), whichever is first: a request answered 504
 * while its handler still waits (a body trickling in) no longer holds it, as upstream's
 * handler returns at its context's deadline.
 */
import type { Gauge } from 'prom-client';
import { ApiError } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { holdUntilDone, isLongRunning } from './request-deadline.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The 429 answer (a Status, so every client sees reason and retry delay). */
export function tooManyRequests(): ApiError {
  return new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
}

/**
 * The max-in-flight filter. `gauge` is apiserver_current_inflight_requests{request_kind};
 * `onReject` runs for every request refused with 429 (apiserver_request_terminations_total).
 */
export function maxInFlight(
  limits: { readOnly: number; mutating: number },
  gauge?: Gauge<string>,
  onReject?: (ctx: ApiContext) => void,
) {
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    if (isLongRunning(ctx.state.requestInfo)) return next();
    const kind = MUTATING.has(ctx.method) ? 'mutating' : 'readOnly';
    if (inFlight[kind] >= limits[kind]) {
      onReject?.(ctx);
      throw tooManyRequests();
    }
    inFlight[kind]++;
    gauge?.set({ request_kind: kind }, inFlight[kind]);
    return holdUntilDone(
      ctx,
      () => {
        inFlight[kind]--;
        gauge?.set({ request_kind: kind }, inFlight[kind]);
      },
      next,
    );
  };
}
