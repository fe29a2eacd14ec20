/**
 * HTTP/1.1 upgrade requests (`Connection: Upgrade`, as kubectl exec, attach and port-forward
 * send them over SPDY or WebSocket) go through the same request handler as every other request,
 * so authentication and the Status errors apply to them; a connect handler may then take the
 * connection over and tunnel it to a backend (upstream's UpgradeAwareHandler hijacks it).
 *
 * Node hands such requests to a server's 'upgrade' listener with the bare socket; without one
 * they arrive as ordinary requests whose socket stays with the HTTP parser and cannot be
 * tunnelled. {@link installUpgradeHandling} adds the listener: each upgrade request gets a
 * response object bound to its socket (closed once answered), and its socket can be taken
 * with {@link takeUpgradeSocket}.
 */
import { ServerResponse, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';

interface Pending {
  readonly socket: Duplex;
  readonly head: Buffer;
  taken: boolean;
}

const pending = new WeakMap<IncomingMessage, Pending>();
const installed = new WeakSet<HttpServer>();

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Route `server`'s upgrade requests through its own 'request' listener (the Koa handler).
 * Idempotent. A response written to an upgrade request ends the connection afterwards.
 */
export function installUpgradeHandling(server: HttpServer): void {
  if (installed.has(server)) return;
  installed.add(server);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const [handler] = server.listeners('request') as RequestListener[];
    if (!handler) {
      socket.destroy();
      return;
    }
    const entry: Pending = { socket, head, taken: false };
    pending.set(req, entry);
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.once('finish', () => {
      if (entry.taken) return;
      res.detachSocket(socket as never);
      socket.end();
    });
    socket.once('close', () => {
      if (!entry.taken) res.destroy();
    });
    handler(req, res);
  });
}

/** Whether `req` asks for an upgrade (a `Connection` header naming `upgrade`; upstream IsUpgradeRequest). */
export function isUpgradeRequest(req: IncomingMessage): boolean {
  const connection = req.headers.connection;
  const values = Array.isArray(connection) ? connection : connection ? [connection] : [];
  return values.some((v: string) => v.split(',').some((t: string) => t.trim().toLowerCase() === 'upgrade'));
}

/**
 * Take the raw connection of an upgrade request received through {@link installUpgradeHandling}:
 * the socket and the bytes that followed the request head. After this nothing may be written
 * through the response. Undefined when `req` did not come in that way (HTTP/2, or the listener
 * was not there yet).
 */
export function takeUpgradeSocket(req: IncomingMessage): { socket: Duplex; head: Buffer } | undefined {
  const entry = pending.get(req);
  if (!entry || entry.taken) return undefined;
  entry.taken = true;
  return { socket: entry.socket, head: entry.head };
}

/** Whether `req`'s raw connection can still be taken with {@link takeUpgradeSocket}. */
export function hasUpgradeSocket(req: IncomingMessage): boolean {
  const entry = pending.get(req);
  return entry !== undefined && !entry.taken;
}
