/**
 * Where a request stands on the wire, over HTTP/1.1 (Node's IncomingMessage) or HTTP/2 (the
 * compat layer's Http2ServerRequest and its stream): has its body fully arrived, has its client
 * gone, and how to cut it. Used by the request deadline and by the client-gone check.
 */
import type { IncomingMessage } from 'node:http';
import { constants as h2, type Http2ServerRequest } from 'node:http2';

type Request = IncomingMessage | Http2ServerRequest;

/** True for a request that came over HTTP/2. */
export function isHttp2(req: Request): req is Http2ServerRequest {
  return req.httpVersionMajor >= 2;
}

/**
 * True once nothing more of the request can arrive: HTTP/1.1 when the parser saw the whole
 * message (read or not); HTTP/2 when the stream ended with its headers, its body was read to
 * the end, or the stream is closed.
 */
export function bodyReceived(req: Request): boolean {
  if (!isHttp2(req)) return (req as IncomingMessage).complete || Boolean(req.socket?.destroyed);
  const stream = req.stream;
  return !stream || stream.endAfterHeaders || stream.closed || stream.destroyed || stream.readableEnded;
}

/**
 * True when the client has gone before it was answered: its HTTP/2 stream was reset (or its
 * session closed), or its HTTP/1.1 connection closed.
 */
export function clientGone(req: Request): boolean {
  if (isHttp2(req)) return req.stream.destroyed || req.stream.closed;
  return Boolean(req.socket?.destroyed);
}

/**
 * Stop `req`: over HTTP/2 reset its stream (NO_ERROR after a complete answer, as Go's server
 * does to a body still arriving; INTERNAL_ERROR to abort an answer under way), over HTTP/1.1
 * close its connection (the only way to stop a body, or an answer that has started). Either
 * way a reader of the body still waiting gets its end ('aborted' or end of stream) and fails.
 */
export function cutRequest(req: Request, answered: boolean): void {
  if (isHttp2(req)) {
    if (!req.stream.destroyed) req.stream.close(answered ? h2.NGHTTP2_NO_ERROR : h2.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  // (the request itself, not only its socket: once answered, Node no longer aborts it when the socket closes)
  if (!req.destroyed) req.destroy();
  else req.socket?.destroy();
}
