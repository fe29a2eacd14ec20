/**
 * Forwarding a connect request to its backend, as upstream's generic REST pieces do:
 * - {@link streamFrom}: GET the backend and stream its body back (upstream LocationStreamer,
 *   with GenericHttpResponseChecker turning a failed answer into a Status);
 * - {@link proxyTo}: forward any request and its answer (upstream UpgradeAwareHandler over the
 *   proxy transport, which answers 503 `Error: '...'\nTrying to reach: '...'` when the backend
 *   cannot be reached);
 * - {@link tunnelTo}: pass an upgrade request through and pipe both connections (exec, attach,
 *   port-forward; a plain request is 400 `Upgrade request required`).
 * Failures to reach a backend are answered within the dial deadline and never hang.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, badRequest, internalError } from '../../errors/api-error.js';
import type { StatusDetails } from '../../api/status.js';
import type { ApiContext } from '../context.js';
import { DialError, dialBackend } from './dial.js';
import { genericServerResponse } from './backend-errors.js';
import { isUpgradeRequest, takeUpgradeSocket, hasUpgradeSocket } from './upgrade.js';
import { errorMessage } from '../../api/error-message.js';

/** Headers that belong to one connection and are not forwarded (RFC 7230 6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** How long a connected backend may take to send its response head. */
const RESPONSE_HEAD_TIMEOUT_MS = 30_000;

/** Who owns a backend (a node), named in the details of a failure to reach it. */
export interface BackendOwner {
  readonly kind: string;
  readonly name: string;
}

function ownerDetails(owner?: BackendOwner): StatusDetails | undefined {
  return owner ? { name: owner.name, kind: owner.kind } : undefined;
}

/** Send one request over an open connection; resolves with the response head. */
function send(
  socket: Socket,
  url: URL,
  method: string,
  headers: Record<string, string | string[]>,
  body?: Buffer | IncomingMessage,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      method,
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host },
      createConnection: () => socket,
    });
    const timer = setTimeout(
      () => req.destroy(new Error('net/http: timeout awaiting response headers')),
      RESPONSE_HEAD_TIMEOUT_MS,
    );
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (Buffer.isBuffer(body)) req.end(body);
    else if (body) (body as IncomingMessage).pipe(req);
    else req.end();
  });
}

/**
 * GET `url` and answer its body as `contentType` (streamed, flushed as it comes). Throws
 * ApiError: 500 `Get <url>: dial tcp ...` when the backend cannot be reached (with `owner` in
 * the details), or the Status upstream's response checker makes of a non-2xx answer.
 */
export async function streamFrom(
  ctx: ApiContext,
  url: URL,
  opts: { contentType: string; resource: string; name: string; owner?: BackendOwner },
): Promise<void> {
  let res: IncomingMessage;
  try {
    const socket = await dialBackend(url);
    res = await send(socket, url, 'GET', { 'user-agent': 'ck-apiserver', 'accept-encoding': 'identity' });
  } catch (err) {
    throw new ApiError(500, '', `Get ${url.href}: ${errorMessage(err)}`, ownerDetails(opts.owner));
  }
  const code = res.statusCode ?? 500;
  if (code < 200 || code > 206) throw await checkResponse(res, code, opts.resource, opts.name);
  ctx.status = 200;
  ctx.type = opts.contentType;
  ctx.body = res;
}

/** Upstream GenericHttpResponseChecker: the Status for a backend's failed answer. */
async function checkResponse(res: IncomingMessage, code: number, resource: string, name: string): Promise<ApiError> {
  const text = await readLimited(res, 50_000);
  if (code === 500) return internalError(text);
  if (code === 400) return badRequest(text);
  return genericServerResponse(code, resource, name, text);
}

function readLimited(res: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      res.destroy();
      resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    };
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= limit) done();
    });
    res.once('end', done);
    res.once('error', done);
  });
}

/** The request body: what a body reader already took, or the request stream itself. */
function requestBody(ctx: ApiContext): Buffer | IncomingMessage | undefined {
  if (ctx.state.rawBuffer) return ctx.state.rawBuffer;
  if (ctx.req.readableEnded) return ctx.state.rawBody ? Buffer.from(ctx.state.rawBody, 'utf8') : undefined;
  return ctx.req as IncomingMessage;
}

/** The client's headers to forward: not hop-by-hop, not its credentials, not Host. */
function forwardedHeaders(ctx: ApiContext, keepUpgrade: boolean): [string, string][] {
  const raw = ctx.req.rawHeaders;
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = raw[i].toLowerCase();
    if (lower === 'host' || lower === 'authorization' || lower.startsWith(':')) continue;
    if (!keepUpgrade && HOP_BY_HOP.has(lower)) continue;
    out.push([raw[i], raw[i + 1]]);
  }
  return out;
}

/**
 * Forward the request to `url` (its path and query already set) and answer the backend's
 * status, headers and body. An upgrade request is tunnelled instead. A backend that cannot be
 * reached is answered as upstream's proxy transport does: 503 text/plain
 * `Error: '<dial error>'\nTrying to reach: '<url>'`.
 */
export async function proxyTo(ctx: ApiContext, url: URL, owner?: BackendOwner): Promise<void> {
  if (isUpgradeRequest(ctx.req) && hasUpgradeSocket(ctx.req)) return tunnelTo(ctx, url, owner);
  let res: IncomingMessage;
  try {
    const socket = await dialBackend(url);
    const headers: Record<string, string[]> = {};
    for (const [k, v] of forwardedHeaders(ctx, false)) (headers[k.toLowerCase()] ??= []).push(v);
    res = await send(socket, url, ctx.method, headers, requestBody(ctx));
  } catch (err) {
    ctx.status = 503;
    ctx.type = 'text/plain';
    ctx.body = `Error: '${errorMessage(err)}'\nTrying to reach: '${url.href}'`;
    return;
  }
  ctx.status = res.statusCode ?? 502;
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'content-length') continue;
    ctx.set(name, value as string | string[]);
  }
  ctx.body = res;
}

/**
 * Tunnel an upgrade request to `url`: dial, send the request head with the client's upgrade
 * headers, then pipe both connections (the backend's 101 or refusal goes to the client as it
 * is). Throws ApiError 400 `Upgrade request required` for a plain request, 500 `error dialing
 * backend: dial tcp ...` (with `owner` in the details) when the backend cannot be reached, and
 * 503 when the connection cannot be taken over (a server built without installUpgradeHandling).
 */
export async function tunnelTo(ctx: ApiContext, url: URL, owner?: BackendOwner): Promise<void> {
  if (!isUpgradeRequest(ctx.req)) throw badRequest('Upgrade request required');
  if (!hasUpgradeSocket(ctx.req)) {
    throw new ApiError(503, 'ServiceUnavailable', 'the connection could not be upgraded; retry the request', {
      retryAfterSeconds: 1,
    });
  }
  let backend: Socket;
  try {
    backend = await dialBackend(url);
  } catch (err) {
    if (err instanceof DialError)
      throw new ApiError(500, '', `error dialing backend: ${err.message}`, ownerDetails(owner));
    throw err;
  }
  const taken = takeUpgradeSocket(ctx.req);
  if (!taken) {
    backend.destroy();
    throw new ApiError(503, 'ServiceUnavailable', 'the connection could not be upgraded; retry the request', {
      retryAfterSeconds: 1,
    });
  }
  const { socket: client, head } = taken;
  const lines = [`${ctx.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [k, v] of forwardedHeaders(ctx, true)) lines.push(`${k}: ${v}`);
  backend.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length) backend.write(head);
  const close = () => {
    client.destroy();
    backend.destroy();
  };
  (client as Socket).setTimeout?.(0);
  client.on('error', close);
  backend.on('error', close);
  client.once('close', close);
  backend.once('close', close);
  backend.pipe(client);
  client.pipe(backend);
  ctx.status = 101;
  ctx.respond = false;
}
