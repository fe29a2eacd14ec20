// HTTP/2 "rapid reset" (CVE-2023-44487): a client that opens list streams and cancels each at
// once gets its connection closed with GOAWAY ENHANCE_YOUR_CALM, the cancelled lists do not run,
// and other clients are answered meanwhile and afterwards; clients that use HTTP/2 normally
// (100 concurrent streams, watches they cancel now and then) keep their connection.
import { connect, constants as h2, type ClientHttp2Session } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer, type TestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const headers = (path: string) => ({
  ':path': path,
  authorization: `Bearer ${TEST_TOKEN}`,
  accept: 'application/json',
});

function session(server: TestServer): ClientHttp2Session {
  const s = connect(server.url, { ca: server.running.caPem });
  s.on('error', () => undefined);
  return s;
}

/** One GET on `s`: its status (0 when the stream failed). */
function get(s: ClientHttp2Session, path: string): Promise<number> {
  return new Promise((resolve) => {
    const stream = s.request(headers(path));
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('error', () => resolve(0));
    stream.on('close', () => resolve(status));
    stream.resume();
  });
}

/** apiserver_request_total for LIST of `resource`, summed over its label sets. */
async function listCount(resource: string): Promise<number> {
  const text = (await srv.api('GET', '/metrics', undefined, { accept: 'text/plain' })).text as string;
  return text
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('apiserver_request_total{') && l.includes('verb="LIST"') && l.includes(`resource="${resource}"`),
    )
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

/** One HTTP/2 frame: 9-byte header (length, type, flags, stream id), then the payload. */
function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/** An HPACK string without Huffman coding (values here are under 127 bytes). */
const hpackString = (v: string) => Buffer.concat([Buffer.from([v.length]), Buffer.from(v)]);

/**
 * A raw HTTP/2 client as rapid-reset tools are: over one TLS connection, HEADERS (a GET of
 * `path`) then RST_STREAM(CANCEL) for each new stream, 100 pairs per write, until `max`
 * streams or the server closes the connection. Answers how many streams were sent and the
 * error code of the server's GOAWAY, if one came.
 */
function rapidReset(server: TestServer, path: string, max: number): Promise<{ opened: number; goaway?: number }> {
  const url = new URL(server.url);
  const block = Buffer.concat([
    Buffer.from([0x82, 0x87]), // :method GET, :scheme https
    Buffer.from([0x01]),
    hpackString(url.host), // :authority
    Buffer.from([0x04]),
    hpackString(path), // :path
    Buffer.from([0x0f, 0x08]),
    hpackString(`Bearer ${TEST_TOKEN}`), // authorization
  ]);
  const cancel = Buffer.alloc(4);
  cancel.writeUInt32BE(h2.NGHTTP2_CANCEL);
  return new Promise((resolve) => {
    let opened = 0;
    let goaway: number | undefined;
    let pending = Buffer.alloc(0);
    const socket = tlsConnect(
      { host: url.hostname, port: Number(url.port), ca: server.running.caPem, ALPNProtocols: ['h2'] },
      () => {
        socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(0x4, 0, 0)]));
        const burst = () => {
          if (socket.destroyed || goaway !== undefined) return;
          const frames: Buffer[] = [];
          for (let i = 0; i < 100 && opened < max; i++) {
            const id = 2 * opened++ + 1;
            frames.push(frame(0x1, 0x5, id, block), frame(0x3, 0, id, cancel)); // HEADERS (END_STREAM|END_HEADERS), RST_STREAM
          }
          socket.write(Buffer.concat(frames));
          if (opened < max) setImmediate(burst);
          else socket.end();
        };
        burst();
      },
    );
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9 && pending.length >= 9 + pending.readUIntBE(0, 3)) {
        const length = pending.readUIntBE(0, 3);
        const [type, flags] = [pending[3], pending[4]];
        if (type === 0x4 && !(flags & 0x1)) socket.write(frame(0x4, 0x1, 0)); // SETTINGS ACK
        if (type === 0x7) goaway ??= pending.readUInt32BE(13); // GOAWAY: last stream id, error code
        pending = pending.subarray(9 + length);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ opened, goaway }));
  });
}

describe('HTTP/2 rapid reset', () => {
  it('closes the resetting connection with ENHANCE_YOUR_CALM without running its lists, and answers others', async () => {
    const listsBefore = await listCount('podtemplates');
    const other = session(srv);
    const attack = rapidReset(srv, '/api/v1/namespaces/default/podtemplates', 4000);
    const during = Promise.all(Array.from({ length: 20 }, () => get(other, '/api/v1/namespaces/default/configmaps')));
    const { opened, goaway } = await attack;
    expect(goaway).toBe(h2.NGHTTP2_ENHANCE_YOUR_CALM);
    expect(opened).toBeGreaterThan(400);
    expect(opened).toBeLessThan(4000);
    expect(await during).toEqual(Array(20).fill(200));
    // Afterwards: the other connection, and a new one, are served.
    expect(
      await Promise.all(Array.from({ length: 20 }, () => get(other, '/api/v1/namespaces/default/configmaps'))),
    ).toEqual(Array(20).fill(200));
    const fresh = session(srv);
    expect(await get(fresh, '/api/v1/namespaces/default/podtemplates')).toBe(200);
    // Streams reset in the read that opened them never reach a handler: few lists ran.
    const ran = (await listCount('podtemplates')) - listsBefore - 1;
    expect(ran).toBeLessThan(opened / 10);
    other.close();
    fresh.close();
  });

  it('keeps connections that use HTTP/2 normally: 100 concurrent streams, and watches cancelled now and then', async () => {
    const client = session(srv);
    let goaway: number | undefined;
    client.on('goaway', (code: number) => (goaway = code));
    for (let round = 0; round < 3; round++) {
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => get(client, `/api/v1/namespaces/default/configmaps?limit=${i + 1}`)),
      );
      expect(statuses).toEqual(Array(100).fill(200));
    }
    // 50 watches opened, then stopped by the client (RST_STREAM CANCEL), twice.
    for (let round = 0; round < 2; round++) {
      const watches = Array.from({ length: 50 }, () =>
        client.request(headers('/api/v1/namespaces/default/configmaps?watch=true')),
      );
      await Promise.all(watches.map((w) => new Promise((resolve) => w.once('response', resolve))));
      for (const w of watches) {
        w.on('error', () => undefined);
        w.close(h2.NGHTTP2_CANCEL);
      }
      expect(await get(client, '/api/v1/namespaces/default/configmaps')).toBe(200);
    }
    expect(goaway).toBeUndefined();
    expect(client.closed).toBe(false);
    client.close();
  });
});
