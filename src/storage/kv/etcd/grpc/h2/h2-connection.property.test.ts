import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import fc from 'fast-check';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H2Connection, type H2Outcome } from './h2-connection.js';
import { FrameType, frame } from './frames.js';

/** What the peer sends after the client's preface, then it closes the connection. */
let script: Buffer[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      for (const bytes of script) socket.write(bytes);
      setTimeout(() => socket.end(), 5);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

/** Frames of any type, flags, stream and payload, and now and then a well-formed answer to stream 1 or 3. */
const anyFrame = fc.oneof(
  fc
    .record({
      type: fc.integer({ min: 0, max: 11 }),
      flags: fc.integer({ min: 0, max: 255 }),
      streamId: fc.constantFrom(0, 1, 3, 5, 2, 0x7fffffff),
      payload: fc.uint8Array({ maxLength: 48 }),
    })
    .map(({ type, flags, streamId, payload }) => frame(type, flags, streamId, payload)),
  // HEADERS :status 200 (static index 8), END_HEADERS, sometimes END_STREAM.
  fc
    .record({ id: fc.constantFrom(1, 3), end: fc.boolean() })
    .map(({ id, end }) => frame(FrameType.HEADERS, 0x4 | (end ? 1 : 0), id, Buffer.from([0x88]))),
  fc
    .record({ id: fc.constantFrom(1, 3), body: fc.uint8Array({ maxLength: 16 }), end: fc.boolean() })
    .map(({ id, body, end }) => frame(FrameType.DATA, end ? 1 : 0, id, body)),
  // Raw bytes: a frame header cut anywhere.
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => Buffer.from(b)),
);

describe('H2Connection against a peer sending arbitrary frames', () => {
  it('never throws, and every call ends (answered, reset or failed) once the peer closes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyFrame, { maxLength: 12 }), async (frames) => {
        script = frames;
        const conn = new H2Connection(url, { dialTimeoutMs: 1000 });
        try {
          const outcomes = await Promise.all(
            [0, 1, 2].map(
              (i) =>
                new Promise<H2Outcome>((resolve) =>
                  conn.request(
                    [
                      [':method', 'POST'],
                      [':path', `/p${i}`],
                    ],
                    Buffer.from('x'),
                    resolve,
                  ),
                ),
            ),
          );
          for (const o of outcomes) expect(o.error === undefined ? o.response.body : o.error).toBeDefined();
        } finally {
          conn.destroy();
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  });

  it('refuses a TLS server that does not agree to h2 by ALPN', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      notAfterDate: new Date(Date.now() + 86_400_000),
    });
    const tls = createTlsServer({ key: pems.private, cert: pems.cert, ALPNProtocols: ['http/1.1'] }, (s) =>
      s.on('error', () => undefined),
    );
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    try {
      const port = (tls.address() as AddressInfo).port;
      const failures: string[] = [];
      const conn = new H2Connection(`https://localhost:${port}`, {
        dialTimeoutMs: 2000,
        tls: { ca: Buffer.from(pems.cert) },
        onFailure: (m) => failures.push(m),
      });
      const outcome = await new Promise<H2Outcome>((resolve) =>
        conn.request([[':path', '/x']], Buffer.alloc(0), resolve),
      );
      expect(outcome).toMatchObject({ lost: true, unsent: true });
      expect(failures.join()).toMatch(/did not agree to HTTP\/2|ALPN|no application protocol/i);
    } finally {
      tls.close();
    }
  });
});
