import {
  constants,
  createSecureServer,
  createServer,
  type Http2Server,
  type Http2Session,
  type SecureServerOptions,
  type ServerHttp2Stream,
} from 'node:http2';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { H2Connection, type H2Outcome } from './h2-connection.js';
import { fieldOf } from './h2-stream.js';

type Handler = (stream: ServerHttp2Stream, body: Buffer, headers: Record<string, unknown>) => void;

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

/** An HTTP/2 server (node:http2, so another implementation than ours) answering with `handler`. */
async function h2Server(handler: Handler, options: { maxConcurrentStreams?: number; padded?: boolean } = {}) {
  const sessions: Http2Session[] = [];
  const server: Http2Server = createServer({
    settings: { maxConcurrentStreams: options.maxConcurrentStreams },
    paddingStrategy: options.padded ? constants.PADDING_STRATEGY_MAX : constants.PADDING_STRATEGY_NONE,
  });
  server.on('session', (s) => sessions.push(s));
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => handler(stream, Buffer.concat(chunks), headers));
    stream.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    sessions.forEach((s) => s.destroy());
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessions };
}

/** Answer `body` with a trailer `x-done: yes` (and extra response headers). */
function respond(stream: ServerHttp2Stream, body: Buffer, headers: Record<string, string> = {}): void {
  stream.respond({ ':status': 200, ...headers }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'x-done': 'yes' }));
  stream.end(body);
}

const open = (url: string) => {
  const conn = new H2Connection(url, { dialTimeoutMs: 1000 });
  closers.push(() => conn.destroy());
  return conn;
};

function call(conn: H2Connection, body: Buffer, path = '/echo', extra: [string, string][] = []): Promise<H2Outcome> {
  return new Promise((resolve) =>
    conn.request(
      [[':method', 'POST'], [':scheme', 'http'], [':path', path], [':authority', 'x'], ...extra],
      body,
      resolve,
    ),
  );
}

function responseOf(outcome: H2Outcome) {
  if (outcome.error !== undefined) throw new Error(`failed: ${outcome.error}`);
  return outcome.response;
}

describe('H2Connection against node:http2', () => {
  it('sends headers and body and reads the headers, body and trailers of the answer', async () => {
    let seen: Record<string, unknown> = {};
    const { url } = await h2Server((stream, body, headers) => {
      seen = headers;
      respond(stream, Buffer.concat([Buffer.from('echo:'), body]), { 'content-type': 'application/grpc' });
    });
    const conn = open(url);
    const res = responseOf(await call(conn, Buffer.from('hi'), '/a/b', [['x-long', 'v'.repeat(300)]]));
    expect(res.body.toString()).toBe('echo:hi');
    expect(fieldOf(res.headers, ':status')).toBe('200');
    expect(fieldOf(res.headers, 'content-type')).toBe('application/grpc');
    expect(fieldOf(res.trailers, 'x-done')).toBe('yes');
    expect(seen).toMatchObject({ ':method': 'POST', ':path': '/a/b', 'x-long': 'v'.repeat(300) });
  });

  it('keeps the HPACK table across many answers on one connection (the server indexes repeated headers)', async () => {
    const { url } = await h2Server((stream, body) => respond(stream, body, { 'x-repeated': 'same value each time' }));
    const conn = open(url);
    for (let round = 0; round < 3; round++) {
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(conn, Buffer.from(`m${round}-${i}`))),
      );
      outcomes.forEach((o, i) => {
        const res = responseOf(o);
        expect(res.body.toString()).toBe(`m${round}-${i}`);
        expect(fieldOf(res.headers, 'x-repeated')).toBe('same value each time');
      });
    }
  });

  it('sends a body larger than the peer windows (flow control) and reads an answer larger than ours', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const answer = Buffer.alloc(9 * 1024 * 1024 + 5, 3);
    const { url } = await h2Server((stream, body) =>
      respond(stream, body.equals(big) ? answer : Buffer.from('mismatch')),
    );
    const conn = open(url);
    const outcomes = await Promise.all([call(conn, big), call(conn, big)]);
    for (const o of outcomes) expect(responseOf(o).body.equals(answer)).toBe(true);
  });

  it("waits for a free stream under the server's MAX_CONCURRENT_STREAMS", async () => {
    let active = 0;
    let most = 0;
    const { url } = await h2Server(
      (stream, body) => {
        active++;
        most = Math.max(most, active);
        setTimeout(() => {
          active--;
          respond(stream, body);
        }, 5);
      },
      { maxConcurrentStreams: 3 },
    );
    const conn = open(url);
    // Let the server's SETTINGS arrive first: before them a client may assume no limit.
    responseOf(await call(conn, Buffer.from('first')));
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => call(conn, Buffer.from(String(i)))));
    outcomes.forEach((o, i) => expect(responseOf(o).body.toString()).toBe(String(i)));
    expect(most).toBeLessThanOrEqual(3);
  });

  it('reads padded frames and header blocks split over CONTINUATION frames', async () => {
    const { url } = await h2Server((stream, body) => respond(stream, body, { 'x-big': 'b'.repeat(40_000) }), {
      padded: true,
    });
    const conn = open(url);
    const res = responseOf(await call(conn, Buffer.from('padded')));
    expect(res.body.toString()).toBe('padded');
    expect(fieldOf(res.headers, 'x-big')).toHaveLength(40_000);
  });

  it("answers the server's pings and gets answers to its own", async () => {
    const { url, sessions } = await h2Server((stream, body) => respond(stream, body));
    const conn = open(url);
    responseOf(await call(conn, Buffer.from('x')));
    const rtt = await new Promise<number>((resolve, reject) =>
      sessions[0].ping((err, ms) => (err ? reject(err) : resolve(ms))),
    );
    expect(rtt).toBeGreaterThanOrEqual(0);
    const ok = await new Promise<boolean>((resolve) => expect(conn.ping(resolve)).toBe(true));
    expect(ok).toBe(true);
  });

  it('fails streams above a GOAWAY as unsent, finishes those below, and takes no new ones', async () => {
    const held: ServerHttp2Stream[] = [];
    const { url, sessions } = await h2Server((stream) => held.push(stream));
    const conn = open(url);
    const first = call(conn, Buffer.from('1'));
    await until(() => held.length === 1);
    const lastId = held[0].id!;
    const later = call(conn, Buffer.from('2'));
    await until(() => held.length === 2);
    sessions[0].goaway(constants.NGHTTP2_NO_ERROR, lastId);
    const refused = await later;
    expect(refused).toMatchObject({ unsent: true, lost: false });
    expect(conn.usable).toBe(false);
    respond(held[0], Buffer.from('done'));
    expect(responseOf(await first).body.toString()).toBe('done');
  });

  it('fails open streams when the connection is lost, and every call when nothing listens (unsent)', async () => {
    const { url, sessions } = await h2Server(() => undefined);
    const conn = open(url);
    const pending = call(conn, Buffer.from('x'));
    await until(() => sessions.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    sessions[0].destroy();
    expect(await pending).toMatchObject({ lost: true, unsent: false });

    const port = await closedPort();
    const refused = await call(open(`http://127.0.0.1:${port}`), Buffer.from('x'));
    expect(refused).toMatchObject({ lost: true, unsent: true });
  });

  it('speaks TLS with ALPN h2', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      notAfterDate: new Date(Date.now() + 86_400_000),
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const server = createSecureServer({ key: pems.private, cert: pems.cert } as SecureServerOptions);
    server.on('stream', (stream) => {
      stream.on('data', () => undefined);
      stream.on('end', () => respond(stream, Buffer.from('secure')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const port = (server.address() as AddressInfo).port;
    const conn = new H2Connection(`https://127.0.0.1:${port}`, {
      dialTimeoutMs: 2000,
      tls: { ca: Buffer.from(pems.cert) },
    });
    closers.push(() => conn.destroy());
    expect(responseOf(await call(conn, Buffer.from('x'))).body.toString()).toBe('secure');
  });
});

/** A raw TCP server that answers a connection with `bytes` (after reading the preface). */
async function rawServer(bytes: (socket: Socket) => void): Promise<string> {
  const server = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => bytes(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sockets: Socket[] = [];
  server.on('connection', (s) => sockets.push(s));
  closers.push(() => (sockets.forEach((s) => s.destroy()), server.close()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('H2Connection against a broken peer', () => {
  it('closes the connection on a malformed frame or header block and fails its streams', async () => {
    for (const garbage of [
      Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'),
      // HEADERS on stream 1 with an HPACK index out of range (0xff 0xff ...).
      Buffer.from([0, 0, 3, 1, 5, 0, 0, 0, 1, 0xff, 0xff, 0x7f]),
      // PUSH_PROMISE, which was disabled.
      Buffer.from([0, 0, 4, 5, 4, 0, 0, 0, 1, 0, 0, 0, 2]),
    ]) {
      const url = await rawServer((s) => s.write(garbage));
      const outcome = await call(open(url), Buffer.from('x'));
      expect(outcome).toMatchObject({ lost: true });
    }
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
