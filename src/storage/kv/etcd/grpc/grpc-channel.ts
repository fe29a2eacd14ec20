/**
 * gRPC calls to one etcd member: unary calls, the transport of the KV hot path (Range and
 * Txn), and bidirectional streams (Watch). The wire format is gRPC's
 * (grpc/doc/PROTOCOL-HTTP2.md): a POST of `application/grpc` with a `grpc-timeout`, a 5-byte
 * length prefix before the message, and `grpc-status` / `grpc-message` in the trailers. It
 * exists because a call through the general-purpose client costs about three times the CPU
 * (measured: 142-176 µs against 56-66 µs per Range at concurrency 64).
 *  - Unary calls share one connection of our own (h2/h2-connection.ts: a Txn costs about 15 µs
 *    of client CPU there, against 40-55 µs on a node:http2 stream); streams share one
 *    node:http2 session, where the cost is per message, not per call. Each connection is
 *    dialled on its first call and again after it is lost or has gone away.
 *  - A call that cannot reach the member (refused, reset, dial timeout, connection lost) fails
 *    with UNAVAILABLE marked `connection`; a call past its deadline with DEADLINE_EXCEEDED,
 *    after which the unary connection is pinged (at most once per 5 s, within etcd's keepalive
 *    enforcement). While the ping is unanswered the channel is {@link GrpcChannel.suspect}
 *    (callers prefer other members); the connection is dropped when no answer comes in 2 s,
 *    and the member dialled afresh. (Upstream's keepalive waits 10 s; here a resumed watch
 *    right after a 10 s etcd pause ended early with that timeout, so it stays at 2 s for now.)
 *  - Requests over `maxSendBytes` fail with RESOURCE_EXHAUSTED before being sent, as etcd's Go
 *    client does (clientv3 MaxCallSendMsgSize); responses have no size limit.
 */
import {
  connect,
  constants,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type IncomingHttpHeaders,
} from 'node:http2';
import { MessageReader } from './message-reader.js';
import { H2Connection } from './h2/h2-connection.js';
import { decodeMessage, unaryResult } from './grpc-unary.js';
import { GrpcCode, GrpcError } from './grpc-error.js';
import { errorMessage } from '../../../../api/error-message.js';

export { GrpcCode, GrpcError } from './grpc-error.js';

/** TLS material for the connection (PEM); absent for `http://` members. */
export interface ChannelTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface ChannelOptions {
  readonly tls?: ChannelTls;
  /** Milliseconds a connection may take to be established. */
  readonly dialTimeoutMs: number;
  /** Largest request message in bytes. */
  readonly maxSendBytes: number;
  /** Told why a connection could not be made or was lost. */
  readonly onConnectionFailure?: (message: string) => void;
}

/** What a streaming call tells its owner; each is called on the event loop, never re-entrantly from a method. */
export interface StreamHandlers {
  /** One response message's bytes (a view: decode it before returning). */
  onMessage(message: Buffer): void;
  /**
   * The call ended, once: with null when the server closed it with OK, else why (a GrpcError;
   * `connection` true when the member was not reached or the connection was lost). Not
   * called after {@link StreamCall.cancel}.
   */
  onEnd(err: GrpcError | null): void;
}

/** A streaming call in progress. */
export interface StreamCall {
  /** Send one request message (ignored once the call has ended). */
  send(message: Uint8Array): void;
  /** Cancel the call (RST_STREAM CANCEL, so the server drops what it held for it). */
  cancel(): void;
}

/** Milliseconds a ping may go unanswered before the connection is dropped. */
const PING_TIMEOUT_MS = 2_000;
/** Least milliseconds between two pings on one connection (etcd's default keepalive min time). */
const PING_MIN_INTERVAL_MS = 5000;
/** Flow-control windows (bytes) large enough that a big range is not paced by window updates. */
const STREAM_WINDOW = 4 * 1024 * 1024;
const CONNECTION_WINDOW = 32 * 1024 * 1024;

/** One member's connection; see the file comment. */
export class GrpcChannel {
  private session?: ClientHttp2Session;
  /** The connection of unary calls (see h2/h2-connection.ts); streams use node:http2's. */
  private unaryConn?: H2Connection;
  /** When each unary connection was last pinged (ms since the epoch). */
  private readonly lastPing = new WeakMap<H2Connection, number>();
  /** The connection whose ping has not been answered yet, if any. */
  private pinging?: H2Connection;
  private closed = false;
  private readonly fixedHeaders = new Map<string, [string, string][]>();

  /**
   * True while a ping sent after a timed-out call is unanswered: the member may be slow or
   * gone. Not a failure (calls on it go on); a hint to send new calls elsewhere.
   */
  get suspect(): boolean {
    const c = this.pinging;
    return c !== undefined && c === this.unaryConn && !c.closed;
  }

  /** `target`: `http://host:port` or `https://host:port`. */
  constructor(
    readonly target: string,
    private readonly options: ChannelOptions,
  ) {}

  /**
   * Call `path` (e.g. `/etcdserverpb.KV/Range`) with the encoded `message`, to answer by
   * `deadline` (ms since the epoch). Resolves with the response message's bytes; rejects only
   * with {@link GrpcError}.
   */
  unary(path: string, message: Uint8Array, deadline: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new GrpcError(GrpcCode.CANCELLED, 'channel closed', false, true));
    if (message.length > this.options.maxSendBytes) {
      return Promise.reject(
        new GrpcError(
          GrpcCode.RESOURCE_EXHAUSTED,
          `Sent message larger than max (${message.length} vs. ${this.options.maxSendBytes})`,
          false,
          true,
        ),
      );
    }
    const timeout = Math.max(1, Math.ceil(deadline - Date.now()));
    let conn: H2Connection;
    try {
      conn = this.unaryConnection();
    } catch (err) {
      return Promise.reject(
        new GrpcError(GrpcCode.UNAVAILABLE, `cannot dial ${this.target}: ${errorMessage(err)}`, true, true),
      );
    }
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        call.cancel();
        reject(new GrpcError(GrpcCode.DEADLINE_EXCEEDED, 'Deadline exceeded'));
        this.check(conn);
      }, timeout);
      const call = conn.request(
        [...this.requestHeaders(path), ['grpc-timeout', `${timeout}m`]],
        frameOf(message),
        (outcome) => {
          clearTimeout(timer);
          const result = unaryResult(outcome);
          if (result instanceof GrpcError) reject(result);
          else resolve(result);
        },
      );
    });
  }

  /**
   * Open a bidirectional streaming call of `path` (e.g. `/etcdserverpb.Watch/Watch`) with the
   * extra request `metadata` (gRPC custom metadata, as headers). It has no deadline; the
   * outcome comes through `handlers` (see {@link StreamHandlers}), even when dialling fails.
   */
  stream(path: string, metadata: Record<string, string>, handlers: StreamHandlers): StreamCall {
    let stream: ClientHttp2Stream | undefined;
    let ended = false;
    const end = (err: GrpcError | null) => {
      if (ended) return;
      ended = true;
      handlers.onEnd(err);
    };
    const call: StreamCall = {
      send: (message) => {
        if (ended || !stream || stream.destroyed || stream.writableEnded) return;
        stream.write(frameOf(message));
      },
      cancel: () => {
        ended = true;
        if (stream && !stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
      },
    };
    let session: ClientHttp2Session;
    try {
      if (this.closed) throw new GrpcError(GrpcCode.CANCELLED, 'channel closed');
      session = this.connected();
      stream = session.request(
        { ...metadata, ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' },
        { endStream: false },
      );
    } catch (err) {
      const failure =
        err instanceof GrpcError
          ? err
          : new GrpcError(GrpcCode.UNAVAILABLE, `cannot dial ${this.target}: ${errorMessage(err)}`, true);
      queueMicrotask(() => end(failure));
      return call;
    }
    const open = stream;
    const reader = new MessageReader();
    let broken = false;
    open.on('data', (chunk: Buffer) => {
      if (ended || broken) return;
      try {
        reader.push(chunk, (message) => {
          if (!ended) handlers.onMessage(message);
        });
      } catch (err) {
        broken = true;
        fail(new GrpcError(GrpcCode.INTERNAL, errorMessage(err)));
        open.close(constants.NGHTTP2_CANCEL);
      }
    });
    // The server's end (its status) ends the call: close our side too, or the stream stays open.
    open.on('end', () => open.end());
    const fail = this.settle(session, open, end);
    return call;
  }

  /** Close the connection; calls in flight fail with UNAVAILABLE, later ones with CANCELLED. */
  close(): void {
    this.closed = true;
    this.session?.destroy();
    this.session = undefined;
    this.unaryConn?.destroy();
    this.unaryConn = undefined;
  }

  /** The open connection, dialling one when there is none or it is going away. */
  private connected(): ClientHttp2Session {
    const current = this.session;
    if (current && !current.closed && !current.destroyed) return current;
    const { tls, dialTimeoutMs } = this.options;
    const session = connect(this.target, {
      ...(tls ?? {}),
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW },
    });
    this.session = session;
    const dial = setTimeout(() => session.destroy(new Error(`dial timeout after ${dialTimeoutMs} ms`)), dialTimeoutMs);
    dial.unref();
    session.once('connect', () => {
      clearTimeout(dial);
      session.setLocalWindowSize(CONNECTION_WINDOW);
      session.unref();
    });
    session.on('error', (err) => this.options.onConnectionFailure?.(`${this.target}: ${err.message}`));
    session.once('goaway', () => this.forget(session));
    session.once('close', () => {
      clearTimeout(dial);
      this.forget(session);
    });
    return session;
  }

  /**
   * Follow a call's `stream` to its end and tell `done` its outcome once it has closed: the
   * failure it met (an 'error' event, an HTTP status other than 200, or one given to the
   * returned function, which wins over earlier ones), else its gRPC status: null for OK, a
   * GrpcError for another code, UNAVAILABLE when it closed without one.
   */
  private settle(
    session: ClientHttp2Session,
    stream: ClientHttp2Stream,
    done: (err: GrpcError | null) => void,
  ): (failure: GrpcError) => void {
    let status: IncomingHttpHeaders | undefined;
    let failure: GrpcError | undefined;
    stream.on('response', (headers) => {
      if (headers['grpc-status'] !== undefined) status = headers;
      else if (headers[':status'] !== 200)
        failure = new GrpcError(GrpcCode.UNKNOWN, `HTTP status ${headers[':status']}`);
    });
    stream.on('trailers', (trailers) => (status = trailers));
    stream.on('error', (err) => {
      failure ??= this.streamFailure(session, stream, err);
    });
    stream.on('close', () => {
      if (failure) return done(failure);
      const code = Number(status?.['grpc-status'] ?? NaN);
      if (Number.isNaN(code))
        return done(
          new GrpcError(
            GrpcCode.UNAVAILABLE,
            `stream closed without a status (code ${stream.rstCode})`,
            session.destroyed,
          ),
        );
      done(code === 0 ? null : new GrpcError(code, decodeMessage(status?.['grpc-message'])));
    });
    return (err) => (failure = err);
  }

  /** The GrpcError of a stream's 'error' event. */
  private streamFailure(session: ClientHttp2Session, stream: ClientHttp2Stream, err: Error): GrpcError {
    if (session.destroyed || !this.isUp(session))
      return new GrpcError(GrpcCode.UNAVAILABLE, `connection lost: ${err.message}`, true);
    // A stream the member refused (e.g. while going away) was not processed: safe to retry.
    if (stream.rstCode === constants.NGHTTP2_REFUSED_STREAM)
      return new GrpcError(GrpcCode.UNAVAILABLE, err.message, false, true);
    return new GrpcError(GrpcCode.INTERNAL, err.message);
  }

  private isUp(session: ClientHttp2Session): boolean {
    return !session.connecting && !session.closed && !session.destroyed;
  }

  private forget(session: ClientHttp2Session): void {
    if (this.session === session) this.session = undefined;
  }

  /**
   * After a call timed out: drop the connection unless it answers a ping within 2 s (meanwhile
   * the channel is {@link suspect}). At most one
   * ping per connection every 5 s, etcd's default `--grpc-keepalive-min-time`: gRPC servers
   * count pings closer together than that as strikes and, past two, close the connection with
   * GOAWAY ENHANCE_YOUR_CALM (`too_many_pings`), which a burst of timed-out calls against a
   * slow member would otherwise provoke.
   */
  private check(conn: H2Connection): void {
    if (conn.closed) return;
    const now = Date.now();
    if (now - (this.lastPing.get(conn) ?? -Infinity) < PING_MIN_INTERVAL_MS) return;
    this.lastPing.set(conn, now);
    this.pinging = conn;
    const answered = () => {
      clearTimeout(timer);
      if (this.pinging === conn) this.pinging = undefined;
    };
    const timer = setTimeout(() => {
      answered();
      conn.destroy(`connection did not answer a ping in ${PING_TIMEOUT_MS / 1000} s`);
    }, PING_TIMEOUT_MS);
    timer.unref();
    // Any outcome but silence ends the suspicion: an answer, or the connection closing.
    if (!conn.ping(answered)) answered();
  }

  /** The connection of unary calls, dialled when there is none or it can take no more calls. */
  private unaryConnection(): H2Connection {
    const current = this.unaryConn;
    if (current?.usable) return current;
    const conn = new H2Connection(this.target, {
      tls: this.options.tls,
      dialTimeoutMs: this.options.dialTimeoutMs,
      onFailure: this.options.onConnectionFailure,
    });
    this.unaryConn = conn;
    return conn;
  }

  /** The fixed request headers of a unary call of `path` (pseudo-headers first). */
  private requestHeaders(path: string): [string, string][] {
    let fixed = this.fixedHeaders.get(path);
    if (!fixed) {
      const url = new URL(this.target);
      fixed = [
        [':method', 'POST'],
        [':scheme', url.protocol === 'https:' ? 'https' : 'http'],
        [':path', path],
        [':authority', url.host],
        ['content-type', 'application/grpc'],
        ['te', 'trailers'],
      ];
      this.fixedHeaders.set(path, fixed);
    }
    return fixed;
  }
}

/** A message with its gRPC length prefix (uncompressed). */
function frameOf(message: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}
