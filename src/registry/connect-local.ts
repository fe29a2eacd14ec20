/**
 * Connect requests the server answers itself instead of forwarding them to a backend (the node
 * agent of a simulated node): a text stream (as a kubelet's `containerLogs`), or a remote
 * command session (as a kubelet's `exec`/`attach`: stdin, stdout, stderr, an exit status).
 * Types only: the kind's connect rule builds a {@link LocalConnect}; the HTTP layer serves it
 * (a streamed body, or upstream's WebSocket channel protocol). Nothing here names a kind.
 */

/**
 * A stream of text answered as the body (upstream LocationStreamer's output): `open` yields the
 * chunks; it ends when the source ends or `signal` aborts (the client went away).
 */
export interface LocalStream {
  readonly kind: 'stream';
  /** The response's media type (`text/plain`). */
  readonly contentType: string;
  open(signal: AbortSignal): AsyncIterable<string>;
}

/** Which standard streams a remote command session has (upstream remotecommand Options). */
export interface SessionStreams {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  /** A terminal: stderr goes to stdout, and the client may send sizes. */
  readonly tty: boolean;
}

/**
 * What a running session may use: the client's stdin (ends when the client closes it, or the
 * connection), writers of stdout and stderr (dropped when the stream was not asked for), and
 * `signal`, aborted when the client goes away.
 */
export interface SessionIO {
  readonly stdin: AsyncIterable<Uint8Array>;
  stdout(data: string | Uint8Array): void;
  stderr(data: string | Uint8Array): void;
  readonly signal: AbortSignal;
}

/**
 * How a session ended: the command's exit code (0 = success; `command` is named in the message
 * of a failure), or an error of the node agent before or while running it (answered as
 * upstream's InternalError Status: `Internal error occurred: <error>`).
 */
export type SessionResult =
  { readonly exitCode: number; readonly command?: readonly string[] } | { readonly error: string };

/** A remote command session (exec or attach) run by the server. */
export interface LocalSession {
  readonly kind: 'session';
  readonly streams: SessionStreams;
  run(io: SessionIO): Promise<SessionResult>;
}

/** Something the server answers itself. */
export type LocalConnect = LocalStream | LocalSession;

/** The connect target of a request answered locally. */
export interface LocalConnectTarget {
  readonly mode: 'local';
  readonly local: LocalConnect;
}
