/**
 * HTTP/2 on the HTTPS listener, as upstream serves it (k8s.io/apiserver
 * pkg/server/secure_serving.go: ALPN `h2` then `http/1.1`, `MaxConcurrentStreams` from
 * `--http2-max-streams-per-connection`, 100 when 0 as since upstream's CVE-2023-44487 fix, and
 * `--disable-http2-serving`). Go clients (kubectl, client-go, Helm) then multiplex every
 * request and watch of a process over one connection; clients that offer only `http/1.1`
 * (or no ALPN) keep HTTP/1.1 with its header, idle and keep-alive deadlines unchanged.
 *
 * The HTTP/1.1 server owns the listener; a connection that negotiated `h2` is handed to an
 * HTTP/2 server that shares the TLS settings and the request handler. A connection with no open
 * stream for the idle timeout (upstream's IdleTimeout, 90 s) is closed with GOAWAY, as Go's.
 * Work per connection is bounded as Go's server bounds it since CVE-2023-44487 (rapid reset):
 * see http2-streams.ts.
 */
import { createSecureServer, type Http2SecureServer, type Http2Stream, type ServerHttp2Session } from 'node:http2';
import type { Server, ServerOptions } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { SessionStreams, type StreamHandler } from './http2-streams.js';

/** Upstream's stream limit when `--http2-max-streams-per-connection` is 0. */
export const DEFAULT_HTTP2_MAX_STREAMS = 100;

export interface Http2Settings {
  /** `--http2-max-streams-per-connection`; 0 = {@link DEFAULT_HTTP2_MAX_STREAMS}. */
  readonly maxStreamsPerConnection?: number;
  /** Seconds a connection with no open stream is kept (default 90). */
  readonly idleTimeoutSeconds?: number;
}

/** The ALPN protocols the listener offers: `h2` first unless HTTP/2 is disabled. */
export function alpnProtocols(http2: boolean): string[] {
  return http2 ? ['h2', 'http/1.1'] : ['http/1.1'];
}

/**
 * Serve HTTP/2 on `server` (created with {@link alpnProtocols}(true)) through `handler`, the
 * same request listener HTTP/1.1 uses, with bounded work per connection (http2-streams.ts:
 * handlers per connection, streams reset early). Returns the HTTP/2 server, whose sessions
 * `closeAll` ends (GOAWAY) when the server stops.
 */
export function attachHttp2(
  server: Server,
  tls: ServerOptions,
  handler: StreamHandler,
  settings: Http2Settings = {},
): { readonly h2: Http2SecureServer; closeAll(): void } {
  const maxConcurrentStreams = settings.maxStreamsPerConnection || DEFAULT_HTTP2_MAX_STREAMS;
  const schedulers = new WeakMap<ServerHttp2Session, SessionStreams>();
  const h2 = createSecureServer(
    {
      ...tls,
      settings: { maxConcurrentStreams },
      // Watches keep output queued per stream; the default 10 MB cap would refuse new streams
      // on a busy multiplexed connection long before the stream limit.
      maxSessionMemory: 256,
      // Node's own per-session bounds, at their defaults, named here as part of the defence:
      // streams refused for passing MAX_CONCURRENT_STREAMS, and invalid frames, before the
      // session is closed.
      maxSessionRejectedStreams: 100,
      maxSessionInvalidFrames: 1000,
    },
    (req, res) => schedulers.get(req.stream.session as ServerHttp2Session)?.request(req, res),
  );
  const sessions = new Set<ServerHttp2Session>();
  const idleMs = (settings.idleTimeoutSeconds ?? 90) * 1000;
  h2.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    const streams = new SessionStreams(session, handler, maxConcurrentStreams);
    schedulers.set(session, streams);
    let open = 0;
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      idle = setTimeout(() => session.close(), idleMs);
      idle.unref();
    };
    arm();
    // One listener for every stream of the session ('close' comes once per stream).
    const onStreamClose = function (this: Http2Stream): void {
      streams.streamClosed(this);
      if (--open === 0 && !session.closed) arm();
    };
    session.on('stream', (stream) => {
      open++;
      clearTimeout(idle);
      stream.on('close', onStreamClose);
    });
    session.once('close', () => {
      clearTimeout(idle);
      sessions.delete(session);
    });
    session.on('error', () => undefined);
  });
  // http/1.1 keeps the HTTP/1.1 server's own connection listener; h2 goes to the HTTP/2 server.
  const [http1] = server.listeners('secureConnection') as ((socket: TLSSocket) => void)[];
  server.removeAllListeners('secureConnection');
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.alpnProtocol === 'h2') h2.emit('secureConnection', socket);
    else http1.call(server, socket);
  });
  return {
    h2,
    closeAll() {
      for (const s of sessions) s.close();
    },
  };
}
