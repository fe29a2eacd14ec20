/**
 * The request listener the HTTPS and HTTP/2 servers call: Koa's own (`app.callback()`), made
 * lighter for responses that outlive their handler (watches, which may stay open for an hour,
 * thousands at a time).
 *
 * Koa registers every response with on-finished (to report a socket error to the app's 'error'
 * event, and to destroy a streamed body once the response ends). on-finished listens through
 * ee-first: four listeners and some twenty closures and arrays per response, about 1.2 KB that
 * a watch holds for its whole life (over HTTP/2 every one goes through the compat layer's socket
 * proxy). Here on-finished's per-response hook (`res.__onFinished`, a function with a `queue`,
 * on-finished 2.x) is installed before Koa runs and fired by one 'close' listener: on-finished
 * then queues Koa's callbacks on it and attaches nothing itself. 'close' comes once the
 * response has ended or its connection or stream is gone, so queued callbacks run as before;
 * they see no error, so a socket error is no longer passed to the app's 'error' event (Koa only
 * forwards it there: the response is past answering).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type Koa from 'koa';

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/**
 * on-finished 2.x's per-response hook (`res.__onFinished`): on-finished only pushes its
 * callbacks onto `queue` (its own hook is a function, which it calls from ee-first; ours is run
 * by {@link onResponseClose}, so a plain object does, one closure and context fewer per request).
 */
interface FinishedHook {
  queue: ((err: null, res: Response) => void)[] | null;
}

/**
 * `app`'s request listener with on-finished's hook preinstalled on each response (see above);
 * once the middleware are done with a response that goes on (a watch), the request's URL
 * parse cache (`_parsedUrl`, kept by Koa's parseurl) is let go.
 */
export function requestListener<S, C>(app: Koa<S, C>): (req: Request, res: Response) => Promise<void> {
  const handle = app.callback() as (req: Request, res: Response) => Promise<void>;
  return (req, res) => {
    installFinishedHook(res);
    return handle(req, res).then(() => {
      if (!res.writableEnded) (req as { _parsedUrl?: unknown })._parsedUrl = undefined;
    });
  };
}

/**
 * Let go of what Koa queued on the response's hook (its error handler, which holds the request's
 * context): for a response that goes on after the middleware returned (a watch), which has
 * nothing left for that handler to do (it cannot answer after the headers).
 */
export function releaseQueued(res: Response): void {
  const hook = hookOf(res);
  if (hook?.queue) hook.queue = [];
}

/**
 * Call `fn` once when the response is closed (ended, or its connection or stream gone): on the
 * response's hook when it has one (one listener per response), else on 'close'; on the next
 * microtask when the hooked response is closed already.
 */
export function whenClosed(res: Response, fn: () => void): void {
  const hook = hookOf(res);
  // (concat: an array of exact length, where push would reserve 16 more slots for a watch's life)
  if (hook?.queue) hook.queue = hook.queue.concat(fn);
  else if (hook === null) queueMicrotask(fn);
  else (res as NodeJS.EventEmitter).once('close', fn);
}

type Hooked = { __onFinished?: FinishedHook | null };

/** The response's hook: undefined when none was installed, null once the response closed. */
function hookOf(res: Response): FinishedHook | null | undefined {
  return (res as Hooked).__onFinished;
}

function installFinishedHook(res: Response): void {
  (res as Hooked).__onFinished = { queue: [] };
  (res as NodeJS.EventEmitter).on('close', onResponseClose);
}

/** The one 'close' listener of every response: runs (once) what was queued on its hook. */
function onResponseClose(this: Response): void {
  const hook = hookOf(this);
  if (!hook) return;
  (this as Hooked).__onFinished = null;
  const queue = hook.queue;
  hook.queue = null;
  if (queue) for (const fn of queue) fn(null, this);
}
