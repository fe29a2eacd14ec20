/**
 * HTTP/2 as Go clients use it (kubectl, client-go, Helm negotiate `h2` by ALPN): requests and
 * watches multiplexed on one connection, upstream's stream limit, idle connections closed with
 * GOAWAY, HTTP/1.1 unchanged for clients that do not offer h2, and `--disable-http2-serving`.
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_TOKEN, useTestServer, type TestServer } from '../helpers/in-process.js';

const srv = useTestServer({ idleTimeoutSeconds: 1 });
const cms = '/api/v1/namespaces/default/configmaps';

function session(server: TestServer): ClientHttp2Session {
  const s = connect(server.url, { ca: server.running.caPem });
  s.on('error', () => undefined);
  return s;
}

/** One request on `s`: status, headers and body text. */
function h2request(
  s: ClientHttp2Session,
  path: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      ':path': path,
      ':method': method,
      authorization: `Bearer ${TEST_TOKEN}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const stream = s.request(headers);
    let text = '';
    let response: Record<string, unknown> = {};
    stream.setEncoding('utf8');
    stream.on('response', (h) => (response = h));
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => resolve({ status: Number(response[':status']), headers: response, text }));
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A watch on `s` whose events (parsed JSON lines) collect in `events`. */
function h2watch(s: ClientHttp2Session, path: string) {
  const events: any[] = [];
  let headers: Record<string, unknown> = {};
  let tail = '';
  const stream = s.request({ ':path': path, authorization: `Bearer ${TEST_TOKEN}` });
  stream.setEncoding('utf8');
  stream.on('response', (h) => (headers = h));
  stream.on('data', (c: string) => {
    const lines = (tail + c).split('\n');
    tail = lines.pop()!;
    for (const l of lines) if (l) events.push(JSON.parse(l));
  });
  stream.on('error', () => undefined);
  return {
    events,
    headers: () => headers,
    close: () => stream.close(),
    async waitFor(n: number, ms = 5000) {
      const deadline = Date.now() + ms;
      while (events.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return events;
    },
  };
}

describe('HTTP/2', () => {
  it('negotiates h2, answers requests like HTTP/1.1 and advertises upstream stream limit of 100', async () => {
    const s = session(srv);
    try {
      await srv.api('POST', cms, { metadata: { name: 'h2-get' }, data: { a: '1' } });
      const res = await h2request(s, `${cms}/h2-get`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'h2-get' }, data: { a: '1' } });
      expect(s.alpnProtocol).toBe('h2');
      expect(s.remoteSettings.maxConcurrentStreams).toBe(100);
      // A body streamed without content-length (HTTP/2 frames it) is read, not taken as empty.
      const created = await h2request(s, cms, 'POST', { metadata: { name: 'h2-post' }, data: { b: '2' } });
      expect(created.status).toBe(201);
      expect(JSON.parse(created.text)).toMatchObject({ metadata: { name: 'h2-post' }, data: { b: '2' } });
      const missing = await h2request(s, `${cms}/nope`);
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.text)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    } finally {
      s.close();
    }
  });

  it('multiplexes watches on one connection; each gets every event in order, bursts included', async () => {
    const s = session(srv);
    try {
      const list = await srv.api('GET', cms);
      const rv = list.body.metadata.resourceVersion;
      const watches = Array.from({ length: 3 }, () =>
        h2watch(s, `${cms}?watch=1&resourceVersion=${rv}&labelSelector=burst%3Dyes`),
      );
      await new Promise((r) => setTimeout(r, 200));
      // A burst: events pile up faster than one turn per event and go out together.
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          srv.api('POST', cms, { metadata: { name: `burst-${i}`, labels: { burst: 'yes' } } }),
        ),
      );
      await srv.api('DELETE', `${cms}/burst-0`);
      for (const w of watches) {
        const evs = await w.waitFor(41);
        expect(w.headers()['transfer-encoding']).toBeUndefined();
        expect(w.headers()['content-type']).toBe('application/json'); // upstream's JSON watch type ("legacy behavior")
        expect(evs.length).toBe(41);
        expect(evs.slice(0, 40).every((e) => e.type === 'ADDED')).toBe(true);
        expect(new Set(evs.slice(0, 40).map((e) => e.object.metadata.name)).size).toBe(40);
        expect(evs[40]).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'burst-0' } } });
        const rvs = evs.map((e) => Number(e.object.metadata.resourceVersion));
        expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
        w.close();
      }
    } finally {
      s.close();
    }
  });

  it('closes a connection that has no open stream for the idle timeout, but not one with a watch', async () => {
    const idle = session(srv);
    const busy = session(srv);
    const w = h2watch(busy, `${cms}?watch=1`);
    await h2request(idle, `${cms}/h2-get`);
    const closed = new Promise<number>((resolve) => {
      const t = Date.now();
      idle.once('close', () => resolve(Date.now() - t));
    });
    expect(await closed).toBeLessThan(3000);
    expect(busy.closed).toBe(false);
    await srv.api('POST', cms, { metadata: { name: 'after-idle' } });
    const seen = async () => {
      for (let i = 0; i < 100 && !w.events.some((e) => e.object.metadata.name === 'after-idle'); i++)
        await new Promise((r) => setTimeout(r, 20));
      return w.events.some((e) => e.object.metadata.name === 'after-idle');
    };
    expect(await seen()).toBe(true);
    busy.close();
  });
});

describe('--disable-http2-serving', () => {
  let only1: TestServer | undefined;
  afterAll(async () => only1?.stop());

  it('offers only http/1.1 by ALPN', async () => {
    only1 = await startTestServer({ disableHttp2Serving: true });
    const port = only1.running.port;
    const alpn = await new Promise<string | false | null>((resolve, reject) => {
      const sock = tlsConnect(
        { port, host: '127.0.0.1', ca: only1!.running.caPem, ALPNProtocols: ['h2', 'http/1.1'] },
        () => {
          resolve(sock.alpnProtocol);
          sock.end();
        },
      );
      sock.on('error', reject);
    });
    expect(alpn).toBe('http/1.1');
    expect((await only1.api('GET', '/api/v1/namespaces/default')).status).toBe(200);
  });
});
