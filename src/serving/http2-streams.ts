/**
 * Bounded work per HTTP/2 connection, against "rapid reset" (CVE-2023-44487: streams opened
 * and cancelled with RST_STREAM at once, each still costing the server a handler). As Go's
 * HTTP/2 server since its fix (golang.org/x/net/http2 server.go `scheduleHandler`, which
 * upstream's apiserver serves with): at most `maxHandlers` (the advertised
 * MAX_CONCURRENT_STREAMS) handlers run per connection; more requests wait, and a connection
 * with more than 4x that many waiting is closed with GOAWAY ENHANCE_YOUR_CALM. A handler runs
 * until its promise settles and its stream has closed (a watch, until it ends).
 *
 * Two additions for Node:
 * - Requests start on the next turn of the event loop, once every frame of the read that
 *   brought them is processed: a stream reset in the same read (the attack sends HEADERS and
 *   RST_STREAM together) is dropped before any of its work starts.
 * - Streams the client resets before their answer ended are counted in a token bucket
 *   ({@link RESET_RATE_PER_SECOND} a second, bursts of 4x `maxHandlers` up to
 *   {@link MAX_RESET_BURST}); a connection that empties it is closed with GOAWAY
 *   ENHANCE_YOUR_CALM. nghttp2 (1.57+, in Node since 20.8.1) has its own bucket of 1,000 at 33
 *   a second that closes with INTERNAL_ERROR; this one acts first, with the code Go sends.
 *
 * Normal clients are not affected: they keep at most MAX_CONCURRENT_STREAMS streams open, so
 * nothing waits, and they cancel streams rarely (a watch they stop, a request they give up on).
 */
import {
  constants as h2,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Stream,
  type ServerHttp2Session,
} from 'node:http2';

/** A request handler that may return a promise (Koa's does: settled when its middleware end). */
export type StreamHandler = (req: Http2ServerRequest, res: Http2ServerResponse) => unknown;

/** Streams reset early that a connection may spend each second (nghttp2's default rate). */
export const RESET_RATE_PER_SECOND = 33;
/** The burst never exceeds nghttp2's own (1,000), so this bound acts before it does. */
export const MAX_RESET_BURST = 999;

const kSettled = Symbol('handlerSettled');
type TrackedStream = Http2Stream & { [kSettled]?: boolean };

/** The scheduler of one HTTP/2 session (connection). */
export class SessionStreams {
  private running = 0;
  private readonly waiting: [Http2ServerRequest, Http2ServerResponse][] = [];
  private scheduled = false;
  private tokens: number;
  private refilledAt = performance.now();
  private readonly burst: number;

  constructor(
    private readonly session: ServerHttp2Session,
    private readonly handler: StreamHandler,
    private readonly maxHandlers: number,
  ) {
    this.burst = Math.min(4 * maxHandlers, MAX_RESET_BURST);
    this.tokens = this.burst;
  }

  /** A new request on this session: queued, started on the next turn when a handler slot is free. */
  request(req: Http2ServerRequest, res: Http2ServerResponse): void {
    if (this.waiting.length >= 4 * this.maxHandlers) return this.calm();
    this.waiting.push([req, res]);
    this.schedule();
  }

  /**
   * Called once for each stream of the session when it closes: counts a stream the client
   * reset before its answer ended, and ends the handler of a stream whose handler settled.
   */
  streamClosed(stream: Http2Stream): void {
    if (stream.aborted && stream.rstCode !== h2.NGHTTP2_NO_ERROR) this.earlyReset();
    if ((stream as TrackedStream)[kSettled]) this.handlerDone();
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    while (this.running < this.maxHandlers && this.waiting.length > 0) {
      const [req, res] = this.waiting.shift()!;
      if (req.stream.destroyed || req.stream.closed || this.session.destroyed) continue; // reset before it started
      this.start(req, res);
    }
  }

  private start(req: Http2ServerRequest, res: Http2ServerResponse): void {
    this.running++;
    const stream = req.stream as TrackedStream;
    const settled = () => {
      // Done once the stream has closed too; if it has not, its close ends it (streamClosed).
      if (stream.destroyed) this.handlerDone();
      else stream[kSettled] = true;
    };
    let result: unknown;
    try {
      result = this.handler(req, res);
    } catch {
      result = undefined;
    }
    Promise.resolve(result).then(settled, settled);
  }

  private handlerDone(): void {
    this.running--;
    this.schedule();
  }

  private earlyReset(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * RESET_RATE_PER_SECOND);
    this.refilledAt = now;
    if (--this.tokens < 0) this.calm();
  }

  /** GOAWAY ENHANCE_YOUR_CALM and close: the client does more than a client needs to. */
  private calm(): void {
    if (this.session.destroyed) return;
    this.waiting.length = 0;
    // (an Error with the code: a bare code argument is how Node's destroy() takes it, untyped)
    this.session.destroy(
      new Error('HTTP/2 session closed: too many streams reset or waiting'),
      h2.NGHTTP2_ENHANCE_YOUR_CALM,
    );
  }
}
