/**
 * The request deadline of upstream's handler chain: WithRequestDeadline
 * (k8s.io/apiserver pkg/endpoints/filters/request_deadline.go) and
 * WithTimeoutForNonLongRunningRequests (pkg/server/filters/timeout.go), both outside
 * authentication, audit and max-in-flight.
 *
 * A request that is not long-running ({@link isLongRunning}) has `--request-timeout` (default
 * 60 s) from its arrival, or less when its `timeout` query parameter (a Go duration) asks for
 * less; `timeout=0s` or more than the maximum is the maximum, and an unparsable one is 400
 * `invalid timeout specified in the request URL - time: invalid duration "x"`. The deadline
 * covers everything below: authentication, waiting for the body, the handler. When it passes:
 *
 * - {@link RequestDeadline.signal} aborts and {@link RequestDeadline.onExpire}'s callbacks run
 *   (max-in-flight frees the request's slot then, once);
 * - if nothing was written yet the client gets upstream's timeout writer answer, byte for
 *   byte: 504 with the bare `Timeout` Status Go's json encoder writes (no kind or apiVersion,
 *   `Content-Type: text/plain; charset=utf-8` as Go sniffs it, only the headers set before this
 *   filter), and Koa writes nothing more for the request whatever the handler does later;
 *   if the response had started, it is cut (HTTP/1.1 connection closed, HTTP/2 stream reset
 *   with INTERNAL_ERROR), as upstream's panic(http.ErrAbortHandler);
 * - a request body still arriving is cut too: HTTP/1.1 answers `Connection: close`, HTTP/2
 *   resets the stream with NO_ERROR after the answer (as Go's server does after a complete
 *   response), so a trickled body can hold neither a slot nor a connection past the deadline.
 *
 * A request answered early (401, 403, 429) whose body keeps arriving is cut at its deadline as
 * well: the body's time is bounded from the request's arrival, before authentication.
 */
import type Koa from 'koa';
import { parseGoDurationMs } from '../../api/go-duration.js';
import { ApiError, badRequest, timeout } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import type { RequestInfo } from '../request-info.js';
import { whenClosed } from '../request-listener.js';
import { bodyReceived, cutRequest, isHttp2 } from './request-body-state.js';
import { errorMessage } from '../../api/error-message.js';

/** Upstream's `--request-timeout` default, seconds. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;

/** kube-apiserver's LongRunningFunc: these verbs, these subresources of resource requests, and profiling paths. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/**
 * kube-apiserver's long-running check (BasicLongRunningRequestCheck with verbs `watch`, `proxy`
 * and subresources `attach`, `exec`, `proxy`, `log`, `portforward`; non-resource paths under
 * `/debug/pprof/`): these have no request deadline, hold no max-in-flight slot, and are
 * audited at ResponseStarted too.
 */
export function isLongRunning(info: RequestInfo | undefined): boolean {
  if (!info) return false;
  if (LONG_RUNNING_VERBS.has(info.verb)) return true;
  if (info.isResourceRequest) return LONG_RUNNING_SUBRESOURCES.has(info.subresource);
  return info.path.startsWith('/debug/pprof/');
}

/** The message of apierrors.NewTimeoutError in upstream's timeout filter. */
const TIMEOUT_MESSAGE = 'request did not complete within the allotted timeout';
/** What upstream's timeout writer sends: `json.NewEncoder(w).Encode(&err.ErrStatus)`. */
const TIMEOUT_BODY = `${JSON.stringify({ metadata: {}, status: 'Failure', message: `Timeout: ${TIMEOUT_MESSAGE}`, reason: 'Timeout', details: {}, code: 504 })}\n`;

/** The timeout as an ApiError (504 Timeout): what audit records for a request answered by the deadline. */
export function requestTimedOut(): ApiError {
  return timeout(TIMEOUT_MESSAGE);
}

/** The deadline of one request, on `ctx.state.deadline` below this middleware. */
export interface RequestDeadline {
  /**
   * Aborted (once) when the deadline passes, with a 504 Timeout ApiError as reason. Made on
   * first use: what only needs to know or hear of the deadline uses `expired` and `onExpire`,
   * which cost a request no AbortController.
   */
  readonly signal: AbortSignal;
  /** True once the deadline has passed before the request completed (it was answered 504 or cut). */
  readonly expired: boolean;
  /**
   * Call `fn` once if the deadline passes before the request completes (before `signal`'s
   * listeners run); never once it has completed, so nothing needs removing then.
   */
  onExpire(fn: () => void): void;
}

/** What this middleware adds to the Koa state. */
export interface DeadlineState {
  deadline?: RequestDeadline;
}

/**
 * Run `next` holding something (an in-flight slot, a priority level's seats) that `release`
 * gives back once: when the request completes, or earlier when its deadline passes (as
 * upstream's handler returns at its context's deadline while the work may go on).
 */
export async function holdUntilDone(ctx: ApiContext, release: () => void, next: () => Promise<void>): Promise<void> {
  let held = true;
  const once = () => {
    if (!held) return;
    held = false;
    release();
  };
  deadlineOf(ctx)?.onExpire(once);
  try {
    await next();
  } finally {
    once();
  }
}

/** The request's deadline, when it has one (requests that are not long-running). */
export function deadlineOf(ctx: ApiContext): RequestDeadline | undefined {
  return (ctx.state as DeadlineState).deadline;
}

export interface DeadlineHooks {
  /** Called when a request is answered 504 by its deadline (apiserver_request_terminations_total). */
  readonly onTimeout?: (ctx: ApiContext) => void;
  /** Called with the 400 of an invalid `timeout` parameter before it is thrown (upstream audits it). */
  readonly onInvalid?: (ctx: ApiContext, err: ApiError) => void;
}

interface TimeoutSettings {
  requestTimeoutMs?: number;
}

/**
 * Set `app`'s `--request-timeout` (seconds; {@link DEFAULT_REQUEST_TIMEOUT_SECONDS} until
 * set). On the app's context prototype, so every request of the app reads it.
 */
export function setRequestTimeout<S, C>(app: Koa<S, C>, seconds: number): void {
  (app.context as TimeoutSettings).requestTimeoutMs = seconds * 1000;
}

/** The app's `--request-timeout` in milliseconds. */
export function maxRequestTimeoutMs(ctx: ApiContext): number {
  return (ctx as unknown as TimeoutSettings).requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000;
}

/**
 * The deadline in milliseconds from now: the configured maximum, or a shorter positive
 * `timeout` query value. Throws ApiError 400 for a `timeout` that is not a Go duration.
 */
export function requestTimeoutMs(ctx: ApiContext): number {
  const max = maxRequestTimeoutMs(ctx);
  const raw = ctx.query.timeout;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return max;
  let asked: number;
  try {
    asked = parseGoDurationMs(value);
  } catch (err) {
    throw badRequest(`invalid timeout specified in the request URL - ${errorMessage(err)}`);
  }
  return asked > 0 && asked < max ? asked : max;
}

/** The middleware; place it right after request info, before authentication. */
export function requestDeadline(hooks: DeadlineHooks = {}) {
  // Not an async function: the request's promise is the deadline's own (see Deadline.run).
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    if (isLongRunning(ctx.state.requestInfo)) return next();
    let ms: number;
    try {
      ms = requestTimeoutMs(ctx);
    } catch (err) {
      if (err instanceof ApiError) hooks.onInvalid?.(ctx, err);
      throw err;
    }
    const deadline = new Deadline(ctx, ms, hooks);
    (ctx.state as DeadlineState).deadline = deadline;
    return deadline.run(next());
  };
}

/** One request's timer: the race between the handler and the deadline, then the body guard. */
class Deadline implements RequestDeadline {
  /** Made when `signal` is first read. */
  private controller?: AbortController;
  /** What `onExpire` registered, in order. */
  private expiring?: (() => void)[];
  private readonly timer: NodeJS.Timeout;
  /** Headers set before this filter: the only ones a timeout answer keeps (upstream's outer writer). */
  private readonly outerHeaders: readonly string[];
  private state: 'running' | 'done' | 'expired' = 'running';
  private passed = false;
  private closed = false;
  private expire?: () => void;

  constructor(
    private readonly ctx: ApiContext,
    ms: number,
    private readonly hooks: DeadlineHooks,
  ) {
    this.outerHeaders = ctx.res.getHeaderNames();
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref(); // a server that stopped is not kept up by requests it was serving
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.state === 'expired') this.controller.abort(requestTimedOut());
    }
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.state === 'expired';
  }

  onExpire(fn: () => void): void {
    if (this.state === 'running') (this.expiring ??= []).push(fn);
  }

  /**
   * Settled by `work` or by the deadline, whichever comes first; `work`'s error is rethrown if
   * it came first.
   */
  run(work: Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.expire = resolve;
      work.then(
        () => {
          this.settled();
          resolve();
        },
        (err: unknown) => {
          this.settled();
          reject(err);
        },
      );
    });
  }

  /** The handler is done (the deadline did not pass first): Koa answers next. */
  private settled(): void {
    this.expire = undefined;
    if (this.state !== 'running') return;
    this.state = 'done';
    this.expiring = undefined;
    // Once the answer is out, the timer only guards a body still arriving; with none to come
    // (bodyReceived stays true once true) it has nothing left to do.
    if (bodyReceived(this.ctx.req)) clearTimeout(this.timer);
    else whenClosed(this.ctx.res, () => this.responseClosed());
  }

  private responseClosed(): void {
    this.closed = true;
    if (bodyReceived(this.ctx.req)) clearTimeout(this.timer);
    else if (this.passed) cutRequest(this.ctx.req, true);
  }

  private fire(): void {
    this.passed = true;
    if (this.state === 'done') {
      if (this.closed && !bodyReceived(this.ctx.req)) cutRequest(this.ctx.req, true);
      return;
    }
    if (this.state !== 'running') return;
    this.state = 'expired';
    const expiring = this.expiring;
    this.expiring = undefined;
    if (expiring) for (const fn of expiring) fn();
    this.controller?.abort(requestTimedOut());
    this.hooks.onTimeout?.(this.ctx);
    this.answer();
    this.expire?.();
  }

  /** Upstream's timeoutWriter.timeout: the 504 when nothing was written, else abort the response. */
  private answer(): void {
    const { ctx } = this;
    const { req, res } = ctx;
    ctx.respond = false; // Koa writes nothing more for this request
    if (res.headersSent || res.writableEnded) {
      cutRequest(req, false);
      return;
    }
    for (const name of res.getHeaderNames()) if (!this.outerHeaders.includes(name)) res.removeHeader(name);
    const bodyPending = !bodyReceived(req);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(TIMEOUT_BODY));
    if (bodyPending && !isHttp2(req)) res.setHeader('Connection', 'close');
    res.statusCode = 504;
    res.end(TIMEOUT_BODY);
    if (!bodyPending) return;
    // HTTP/2: RST_STREAM(NO_ERROR) once the answer is sent, so the client stops sending.
    // HTTP/1.1: Node closes the connection after the answer; the body's reader is told then.
    if (isHttp2(req)) cutRequest(req, true);
    else whenClosed(res, () => cutRequest(req, true));
  }
}
