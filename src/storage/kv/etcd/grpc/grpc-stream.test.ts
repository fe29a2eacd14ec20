import { createServer, type ServerHttp2Stream } from 'node:http2';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GrpcChannel, GrpcCode, GrpcError } from './grpc-channel.js';
import { MessageReader } from './message-reader.js';

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** An HTTP/2 server calling `onStream` with each stream as it opens; resolves its http:// URL. */
async function streamServer(
  onStream: (stream: ServerHttp2Stream, headers: Record<string, unknown>) => void,
): Promise<string> {
  const server = createServer();
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    onStream(stream, headers);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function frame(text: string): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(Buffer.byteLength(text), 1);
  return Buffer.concat([head, Buffer.from(text)]);
}

/** A stream's outcome as its handlers saw it. */
function collect() {
  const messages: string[] = [];
  let resolveEnd: (err: GrpcError | null) => void = () => undefined;
  const ended = new Promise<GrpcError | null>((r) => (resolveEnd = r));
  return {
    messages,
    ended,
    handlers: {
      onMessage: (m: Buffer) => messages.push(m.toString()),
      onEnd: (err: GrpcError | null) => resolveEnd(err),
    },
  };
}

const channel = (url: string) => new GrpcChannel(url, { dialTimeoutMs: 1000, maxSendBytes: 1024 });

describe('GrpcChannel streams', () => {
  it('sends messages as they are given and delivers each answer, split or joined on the wire, then the OK end', async () => {
    let seen: Record<string, unknown> = {};
    const url = await streamServer((stream, headers) => {
      seen = headers;
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      const reader = new MessageReader();
      stream.on('data', (chunk: Buffer) =>
        reader.push(chunk, (m) => {
          const text = m.toString();
          if (text === 'bye') return stream.end();
          // The answer in two writes, the second joined with a further message.
          const answer = Buffer.concat([frame(`re:${text}`), frame(`again:${text}`)]);
          stream.write(answer.subarray(0, 3));
          stream.write(answer.subarray(3));
        }),
      );
    });
    const ch = channel(url);
    const out = collect();
    const call = ch.stream('/etcdserverpb.Watch/Watch', { hasleader: 'true' }, out.handlers);
    call.send(Buffer.from('one'));
    call.send(Buffer.from('two'));
    await expect.poll(() => out.messages.length).toBe(4);
    call.send(Buffer.from('bye'));
    expect(await out.ended).toBeNull();
    expect(out.messages).toEqual(['re:one', 'again:one', 're:two', 'again:two']);
    expect(seen).toMatchObject({
      ':method': 'POST',
      ':path': '/etcdserverpb.Watch/Watch',
      'content-type': 'application/grpc',
      te: 'trailers',
      hasleader: 'true',
    });
    expect(seen['grpc-timeout']).toBeUndefined();
    ch.close();
  });

  it("ends with the server's status, and with UNAVAILABLE marked as a connection failure when the connection drops", async () => {
    const url = await streamServer((stream) => {
      if (stream.session && (stream.session as unknown as { n?: number }).n === undefined) {
        (stream.session as unknown as { n?: number }).n = 1;
        stream.respond(
          {
            ':status': 200,
            'content-type': 'application/grpc',
            'grpc-status': '14',
            'grpc-message': 'etcdserver%3A no leader',
          },
          { endStream: true },
        );
      } else {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
        setTimeout(() => stream.session?.destroy(), 20);
      }
    });
    const ch = channel(url);
    const first = collect();
    ch.stream('/w', {}, first.handlers);
    expect(await first.ended).toMatchObject({
      code: GrpcCode.UNAVAILABLE,
      details: 'etcdserver: no leader',
      connection: false,
    });
    const second = collect();
    ch.stream('/w', {}, second.handlers);
    expect(await second.ended).toMatchObject({ code: GrpcCode.UNAVAILABLE, connection: true });
    ch.close();
  });

  it('cancelling resets the stream at the server and reports nothing more', async () => {
    let closedAtServer: Promise<number> = Promise.resolve(-1);
    const url = await streamServer((stream) => {
      closedAtServer = new Promise((r) => stream.on('close', () => r(stream.rstCode)));
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(frame('hello'));
    });
    const ch = channel(url);
    const out = collect();
    const call = ch.stream('/w', {}, out.handlers);
    await expect.poll(() => out.messages).toEqual(['hello']);
    call.cancel();
    expect(await closedAtServer).toBe(8); // NGHTTP2_CANCEL
    const late = await Promise.race([out.ended, new Promise((r) => setTimeout(() => r('no end'), 200))]);
    expect(late).toBe('no end');
    ch.close();
  });

  it('reports a member that cannot be dialled through onEnd, not by throwing', async () => {
    const probe = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const ch = channel(`http://127.0.0.1:${port}`);
    const out = collect();
    ch.stream('/w', {}, out.handlers).send(Buffer.from('ignored'));
    expect(await out.ended).toMatchObject({ code: GrpcCode.UNAVAILABLE, connection: true });
    ch.close();
  });
});
