/**
 * Answering a connect request the server serves itself (registry/connect-local.ts): a text
 * stream as the body (flushed as it comes, ended when the client goes away), or a remote
 * command session over upstream's WebSocket channel protocols (proxy/channel-protocol.ts): the
 * upgrade is taken after authentication and authorization, like a tunnelled one, the first
 * writable channel gets an empty message (the kubelet's "connection established"), the end is
 * the Status on the error channel, then a normal close. SPDY upgrades are refused with a
 * Status (the client may retry over WebSocket, as kubectl 1.30+ does first anyway).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ApiError, badRequest } from '../../errors/api-error.js';
import type { LocalConnect, LocalSession, SessionIO } from '../../registry/connect-local.js';
import { errorMessage } from '../../api/error-message.js';
import type { ApiContext } from '../context.js';
import {
  CLOSE,
  ERROR,
  RESIZE,
  STDERR,
  STDIN,
  STDOUT,
  SUPPORTED_PROTOCOLS,
  decodeFrame,
  encodeFrame,
  endMessage,
  negotiate,
  type Outcome,
} from '../proxy/channel-protocol.js';
import { hasUpgradeSocket, isUpgradeRequest, takeUpgradeSocket } from '../proxy/upgrade.js';

/** Serve `local` for the request of `ctx`. Throws ApiError 400/503 for a session that cannot start. */
export async function serveLocal(ctx: ApiContext, local: LocalConnect): Promise<void> {
  if (local.kind === 'stream') {
    const abort = new AbortController();
    ctx.res.once('close', () => abort.abort());
    ctx.status = 200;
    ctx.type = local.contentType;
    ctx.body = Readable.from(local.open(abort.signal), { objectMode: false });
    return;
  }
  return serveSession(ctx, local);
}

/** Whether the request asks to become a WebSocket (upstream wsstream.IsWebSocketRequest). */
function isWebSocketRequest(req: IncomingMessage): boolean {
  return isUpgradeRequest(req) && String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** The subprotocols a WebSocket request offers, in its order. */
function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  const values: string[] = Array.isArray(header) ? header : header ? [header] : [];
  return values.flatMap((v) => v.split(',').map((p) => p.trim())).filter(Boolean);
}

async function serveSession(ctx: ApiContext, session: LocalSession): Promise<void> {
  const req = ctx.req as IncomingMessage;
  if (!isUpgradeRequest(req)) throw badRequest('Upgrade request required');
  if (!isWebSocketRequest(req))
    throw badRequest(
      `unable to upgrade connection: upgrade to ${String(req.headers.upgrade ?? '')} is not supported here; use a WebSocket (subprotocols ${SUPPORTED_PROTOCOLS.join(', ')})`,
    );
  const protocol = negotiate(offeredProtocols(req));
  if (protocol === undefined)
    throw badRequest(
      `requested protocol(s) are not supported: [${offeredProtocols(req).join(' ')}]; supports [${SUPPORTED_PROTOCOLS.join(' ')}]`,
    );
  const taken = hasUpgradeSocket(req) ? takeUpgradeSocket(req) : undefined;
  if (!taken) {
    throw new ApiError(503, 'ServiceUnavailable', 'the connection could not be upgraded; retry the request', {
      retryAfterSeconds: 1,
    });
  }
  (taken.socket as Socket).setTimeout?.(0);
  const wss = new WebSocketServer({ noServer: true, handleProtocols: () => protocol || false });
  ctx.status = 101;
  ctx.respond = false;
  wss.handleUpgrade(req, taken.socket, taken.head, (ws) => {
    void runSession(ws, protocol, session).finally(() => wss.close());
  });
}

/** A queue of stdin chunks read as an async iterable; ends once closed. */
function inputQueue() {
  const chunks: Uint8Array[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(chunk: Uint8Array) {
      if (closed) return;
      chunks.push(chunk);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = chunks.shift();
        if (next) yield next;
        else if (closed) return;
        else await new Promise<void>((r) => (wake = r));
      }
    },
  };
}

/** Run `session` over the open WebSocket `ws` speaking `protocol`, then report its end and close. */
async function runSession(ws: WebSocket, protocol: string, session: LocalSession): Promise<void> {
  const { streams } = session;
  const abort = new AbortController();
  const stdin = inputQueue();
  // One message per write, each written once the one before is flushed, as upstream's server
  // writes them: a client that polls its socket (the Python client) would otherwise miss
  // messages that arrived in one TLS record with the one it read.
  let sending = Promise.resolve();
  const send = (channel: number, data: Uint8Array | string) => {
    const frame = encodeFrame(protocol, channel, data);
    sending = sending.then(
      () =>
        new Promise<void>((resolve) => {
          if (ws.readyState !== ws.OPEN) return resolve();
          ws.send(frame.data, { binary: frame.binary }, () => resolve());
        }),
    );
  };
  ws.on('message', (raw: RawData) => {
    let frame;
    try {
      frame = decodeFrame(protocol, toBuffer(raw));
    } catch {
      return;
    }
    if (!frame) return;
    if (frame.channel === STDIN && streams.stdin) stdin.push(frame.data);
    else if (frame.channel === CLOSE && frame.data[0] === STDIN) stdin.close();
    else if (frame.channel === RESIZE) return; // a simulated terminal has no size to change
  });
  ws.once('close', () => {
    abort.abort();
    stdin.close();
  });
  ws.on('error', () => ws.terminate());
  if (!streams.stdin) stdin.close();
  // The kubelet's "connection established": an empty message on the first writable channel.
  send(streams.stdout ? STDOUT : streams.stderr ? STDERR : ERROR, Buffer.alloc(0));
  const io: SessionIO = {
    stdin,
    stdout: (data) => {
      if (streams.stdout) send(STDOUT, data);
    },
    stderr: (data) => {
      if (streams.stderr) send(STDERR, data);
    },
    signal: abort.signal,
  };
  let outcome: Outcome;
  try {
    outcome = await session.run(io);
  } catch (err) {
    outcome = { error: errorMessage(err) };
  }
  const end = endMessage(protocol, outcome);
  if (end !== undefined) send(ERROR, end);
  await sending;
  if (ws.readyState === ws.OPEN) ws.close(1000);
}

function toBuffer(raw: RawData): Buffer {
  if (Buffer.isBuffer(raw)) return raw;
  if (Array.isArray(raw)) return Buffer.concat(raw);
  return Buffer.from(raw);
}
