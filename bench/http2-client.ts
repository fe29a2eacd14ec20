/**
 * The bench's clients as client-go connects: HTTP/2, a request or watch per stream, a new
 * connection each time the server's stream limit (100 per connection by default) is reached.
 * Built on node:http2, since undici's HTTP/2 pool does not keep to a stream limit.
 * BENCH_HTTP2=0 uses HTTP/1.1 instead (undici: one connection per watch, 64 for requests).
 */
import { setMaxListeners } from 'node:events';
import { connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request } from 'undici';
import { clientOf } from '../test/helpers/api-client.js';

export interface WatchTarget {
  readonly url: string;
  readonly caPem: string;
  readonly token: string;
}

export interface OpenWatches {
  /** Close every watch and connection. */
  close(): Promise<void>;
}

/**
 * Open `count` watches of `path` (each answered 200, else it throws), calling `onData(w, text)`
 * with each chunk watch `w` receives. `perConnection` streams share a connection.
 */
export async function openWatches(
  target: WatchTarget,
  path: string,
  count: number,
  onData: (w: number, text: string) => void,
  perConnection = 100,
): Promise<OpenWatches> {
  if (process.env.BENCH_HTTP2 === '0') return openHttp1(target, path, count, onData);
  const sessions: ClientHttp2Session[] = [];
  for (let first = 0; first < count; first += perConnection) {
    const session = connect(target.url, { ca: target.caPem });
    session.on('error', () => undefined);
    sessions.push(session);
    const opened = Array.from(
      { length: Math.min(perConnection, count - first) },
      (_, k) =>
        new Promise<void>((resolve, reject) => {
          const stream = session.request({ ':path': path, authorization: `Bearer ${target.token}` });
          stream.setEncoding('utf8');
          stream.on('error', () => undefined);
          stream.once('response', (headers) =>
            headers[':status'] === 200 ? resolve() : reject(new Error(`watch answered ${headers[':status']}`)),
          );
          stream.on('data', (chunk: string) => onData(first + k, chunk));
        }),
    );
    await Promise.all(opened);
  }
  return {
    async close() {
      await Promise.all(
        sessions.map(
          (s) => new Promise<void>((resolve) => (s.destroy(), s.closed ? resolve() : s.once('close', () => resolve()))),
        ),
      );
    },
  };
}

async function openHttp1(
  target: WatchTarget,
  path: string,
  count: number,
  onData: (w: number, text: string) => void,
): Promise<OpenWatches> {
  const agent = new Agent({ connect: { ca: target.caPem }, connections: null, pipelining: 0 });
  const abort = new AbortController();
  // Every watch's request listens on this one signal.
  setMaxListeners(0, abort.signal);
  for (let first = 0; first < count; first += 200) {
    const opened = Array.from({ length: Math.min(200, count - first) }, async (_, k) => {
      const res = await request(target.url + path, {
        dispatcher: agent,
        signal: abort.signal,
        headers: { authorization: `Bearer ${target.token}` },
      });
      if (res.statusCode !== 200) throw new Error(`watch answered ${res.statusCode}`);
      res.body.setEncoding('utf8');
      res.body.on('error', () => undefined);
      res.body.on('data', (chunk: string) => onData(first + k, chunk));
    });
    await Promise.all(opened);
  }
  return {
    async close() {
      abort.abort();
      await agent.close().catch(() => undefined);
    },
  };
}

/** A JSON client: `call` sends a request and parses the answer. */
export interface JsonClient {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A JSON client of `target` that keeps up to `concurrency` requests in flight: one HTTP/2
 * connection per 100 of them (BENCH_HTTP2=0: `concurrency` HTTP/1.1 connections).
 */
export function jsonClient(target: WatchTarget, concurrency: number): JsonClient {
  if (process.env.BENCH_HTTP2 === '0') return clientOf(target, concurrency);
  const sessions = Array.from({ length: Math.ceil(concurrency / 100) }, () => {
    const s = connect(target.url, { ca: target.caPem });
    s.on('error', () => undefined);
    return s;
  });
  let next = 0;
  return {
    call(method, path, body) {
      const session = sessions[next++ % sessions.length];
      return new Promise((resolve, reject) => {
        const stream = session.request({
          ':method': method,
          ':path': path,
          authorization: `Bearer ${target.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        });
        let status = 0;
        let text = '';
        stream.setEncoding('utf8');
        stream.once('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (c: string) => (text += c));
        stream.once('end', () => {
          try {
            resolve({ status, body: text ? JSON.parse(text) : undefined });
          } catch (err) {
            reject(err);
          }
        });
        stream.once('error', reject);
        stream.end(body === undefined ? undefined : JSON.stringify(body));
      });
    },
    async close() {
      await Promise.all(
        sessions.map((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.close(() => resolve())))),
      );
    },
  };
}

/** A JSON client that sends each call to the next of `clients` in turn (one per replica); `close` closes them all. */
export function spreadClient(clients: readonly JsonClient[]): JsonClient {
  let next = 0;
  return {
    call: (method, path, body) => clients[next++ % clients.length].call(method, path, body),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
