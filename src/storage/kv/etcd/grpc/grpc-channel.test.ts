import { createServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GrpcChannel, GrpcCode, GrpcError } from './grpc-channel.js';
import { EtcdKvClient } from './etcd-kv-client.js';
import { isConnectionFailure, isTransient } from '../etcd-retry.js';

type Handler = (stream: ServerHttp2Stream, body: Buffer, headers: Record<string, unknown>) => void;

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** A plain-text HTTP/2 server answering each call with `handler`; resolves its http:// URL. */
async function grpcServer(handler: Handler): Promise<string> {
  const server: Http2Server = createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => handler(stream, Buffer.concat(chunks), headers));
    stream.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Answer with `message` framed and status 0, echoing the request message when none given. */
function answer(stream: ServerHttp2Stream, message: Buffer): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  stream.end(frame);
}

/**
 * A TCP relay to `target` (an http:// URL) that can stop passing bytes both ways, as a paused
 * or stalled etcd member does: the connection stays open while nothing answers.
 */
async function stallingRelay(target: string): Promise<{ url: string; stall(on: boolean): void }> {
  const port = Number(new URL(target).port);
  const pairs: [Socket, Socket][] = [];
  let stalled = false;
  const relay = createNetServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) s.on('error', () => undefined);
    inbound.pipe(outbound).pipe(inbound);
    pairs.push([inbound, outbound]);
    if (stalled) {
      inbound.pause();
      outbound.pause();
    }
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  servers.push({ close: () => (pairs.flat().forEach((s) => s.destroy()), relay.close()) });
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    stall: (on) => {
      stalled = on;
      for (const s of pairs.flat()) {
        if (on) s.pause();
        else s.resume();
      }
    },
  };
}

const channel = (url: string, maxSendBytes = 1024) => new GrpcChannel(url, { dialTimeoutMs: 1000, maxSendBytes });
const soon = () => Date.now() + 2000;

describe('GrpcChannel', () => {
  it('sends a framed message with the gRPC headers and returns the answer message', async () => {
    let seen: Record<string, unknown> = {};
    const url = await grpcServer((stream, body, headers) => {
      seen = headers;
      answer(stream, Buffer.concat([Buffer.from('echo:'), body.subarray(5)]));
    });
    const ch = channel(url);
    const res = await ch.unary('/etcdserverpb.KV/Range', Buffer.from('hello'), soon());
    expect(res.toString()).toBe('echo:hello');
    expect(seen).toMatchObject({
      ':method': 'POST',
      ':path': '/etcdserverpb.KV/Range',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    expect(String(seen['grpc-timeout'])).toMatch(/^\d+m$/);
    ch.close();
  });

  it("reports etcd's status and percent-decoded message, e.g. a compacted revision", async () => {
    const url = await grpcServer((stream) =>
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': '11',
          'grpc-message': 'etcdserver%3A mvcc%3A required revision has been compacted',
        },
        { endStream: true },
      ),
    );
    const ch = channel(url);
    const err = await ch.unary('/x', Buffer.alloc(1), soon()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrpcError);
    expect(err).toMatchObject({
      code: 11,
      connection: false,
      message: '11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted',
    });
    expect(isTransient(err)).toBe(false);
    ch.close();
  });

  it('fails a call past its deadline with DEADLINE_EXCEEDED, which is retried but opens no circuit', async () => {
    const url = await grpcServer(() => undefined);
    const ch = channel(url);
    const started = Date.now();
    const err = await ch.unary('/x', Buffer.alloc(1), Date.now() + 150).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err).toMatchObject({ code: GrpcCode.DEADLINE_EXCEEDED });
    expect(isTransient(err)).toBe(true);
    expect(isConnectionFailure(err)).toBe(false);
    ch.close();
  });

  it("pings a slow member at most once per 5 s however many calls time out (etcd's keepalive enforcement)", async () => {
    let pings = 0;
    const server: Http2Server = createServer();
    server.on('session', (session) => session.on('ping', () => pings++));
    server.on('stream', (stream) => stream.on('error', () => undefined)); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push({ close: () => server.close() });
    const ch = channel(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    for (let round = 0; round < 3; round++)
      await Promise.all(
        Array.from({ length: 10 }, () => ch.unary('/x', Buffer.alloc(1), Date.now() + 100).catch(() => undefined)),
      );
    await new Promise((r) => setTimeout(r, 100));
    // 30 timed-out calls, one ping: a gRPC server strikes pings closer than its minimum interval.
    expect(pings).toBe(1);
    ch.close();
  });

  it('keeps the connection of a member that stalls briefly, marked suspect meanwhile: calls waiting on it are answered when it resumes', async () => {
    let sessions = 0;
    const server: Http2Server = createServer();
    server.on('session', () => sessions++);
    server.on('stream', (stream) => {
      stream.on('error', () => undefined);
      stream.on('data', () => undefined);
      stream.on('end', () => answer(stream, Buffer.from('ok')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push({ close: () => server.close() });
    const relay = await stallingRelay(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const ch = channel(relay.url);
    expect((await ch.unary('/x', Buffer.alloc(1), soon())).toString()).toBe('ok');
    relay.stall(true);
    // One call times out (so the channel pings), another waits with a longer deadline.
    const late = ch.unary('/x', Buffer.alloc(1), Date.now() + 6000);
    await expect(ch.unary('/x', Buffer.alloc(1), Date.now() + 200)).rejects.toMatchObject({
      code: GrpcCode.DEADLINE_EXCEEDED,
    });
    expect(ch.suspect).toBe(true);
    await new Promise((r) => setTimeout(r, 1200));
    relay.stall(false);
    expect((await late).toString()).toBe('ok');
    await new Promise((r) => setTimeout(r, 50));
    expect(ch.suspect).toBe(false);
    expect(sessions).toBe(1);
    ch.close();
  }, 10_000);

  it('fails with UNAVAILABLE marked as a connection failure when nothing listens', async () => {
    const probe = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const ch = channel(`http://127.0.0.1:${port}`);
    const err = await ch.unary('/x', Buffer.alloc(1), soon()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: GrpcCode.UNAVAILABLE, connection: true });
    expect(isConnectionFailure(err)).toBe(true);
    ch.close();
  });

  it('fails a dial that never completes within the dial timeout as a connection failure', async () => {
    // A TCP server that accepts but never speaks HTTP/2 over TLS: the TLS handshake hangs.
    const silent: Server = createNetServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    servers.push({ close: () => silent.close() });
    const ch = new GrpcChannel(`https://127.0.0.1:${(silent.address() as AddressInfo).port}`, {
      dialTimeoutMs: 200,
      maxSendBytes: 1024,
    });
    const err = await ch.unary('/x', Buffer.alloc(1), Date.now() + 3000).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: GrpcCode.UNAVAILABLE, connection: true });
    ch.close();
  });

  it('refuses a request over the send limit before sending it', async () => {
    let calls = 0;
    const url = await grpcServer((stream) => (calls++, answer(stream, Buffer.alloc(0))));
    const ch = channel(url, 16);
    const err = await ch.unary('/x', Buffer.alloc(17), soon()).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: GrpcCode.RESOURCE_EXHAUSTED,
      message: '8 RESOURCE_EXHAUSTED: Sent message larger than max (17 vs. 16)',
    });
    expect(isTransient(err)).toBe(false);
    expect(calls).toBe(0);
    ch.close();
  });

  it('rejects a malformed answer and an HTTP error instead of returning garbage', async () => {
    const bad = await grpcServer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.from([0, 0, 0, 0, 9, 1]));
    });
    const ch = channel(bad);
    await expect(ch.unary('/x', Buffer.alloc(1), soon())).rejects.toMatchObject({ code: GrpcCode.INTERNAL });
    ch.close();
    const http = await grpcServer((stream) => stream.respond({ ':status': 503 }, { endStream: true }));
    const ch2 = channel(http);
    await expect(ch2.unary('/x', Buffer.alloc(1), soon())).rejects.toBeInstanceOf(GrpcError);
    ch2.close();
  });

  it('dials again after the connection is lost', async () => {
    let n = 0;
    const url = await grpcServer((stream) => {
      n++;
      if (n === 1) stream.session?.destroy();
      else answer(stream, Buffer.from('ok'));
    });
    const ch = channel(url);
    const first = await ch.unary('/x', Buffer.alloc(1), soon()).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: GrpcCode.UNAVAILABLE });
    expect((await ch.unary('/x', Buffer.alloc(1), soon())).toString()).toBe('ok');
    ch.close();
  });
});

describe('EtcdKvClient', () => {
  it('takes members in turn, skips one whose connection failed, and reports when none is reachable', async () => {
    const hits: string[] = [];
    const up = await grpcServer((stream) => (hits.push('up'), answer(stream, Buffer.alloc(0))));
    const probe = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const down = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((r) => probe.close(r));
    const failures: string[] = [];
    const client = new EtcdKvClient([down, up], {
      maxSendBytes: 1024,
      breakMs: 60_000,
      onConnectionFailure: (m) => failures.push(m),
    });
    await expect(client.range({ key: Buffer.from('a') }, soon())).rejects.toMatchObject({ connection: true });
    expect(failures.some((m) => m.startsWith(down))).toBe(true);
    for (let i = 0; i < 3; i++) await client.range({ key: Buffer.from('a') }, soon());
    expect(hits).toEqual(['up', 'up', 'up']);
    client.close();

    const none = new EtcdKvClient([down], { maxSendBytes: 1024, breakMs: 60_000 });
    await expect(none.range({ key: Buffer.from('a') }, soon())).rejects.toMatchObject({ connection: true });
    await expect(none.range({ key: Buffer.from('a') }, soon())).rejects.toThrow(/circuit/i);
    none.close();
  });

  it('sends new calls past a member that is only slow, and still to it when every member is slow', async () => {
    // Keys-only reads go out one call each (concurrent plain reads would share one Txn).
    const separate = { key: Buffer.from('a'), keys_only: true };
    const hits: string[] = [];
    const fast = await grpcServer((stream) => (hits.push('fast'), answer(stream, Buffer.alloc(0))));
    const slowServer = await grpcServer((stream) => (hits.push('slow'), answer(stream, Buffer.alloc(0))));
    const relay = await stallingRelay(slowServer);
    const client = new EtcdKvClient([relay.url, fast], { maxSendBytes: 1024 });
    for (let i = 0; i < 2; i++) await client.range(separate, soon());
    expect(hits.sort()).toEqual(['fast', 'slow']);
    relay.stall(true);
    hits.length = 0;
    // Round robin reaches the stalled member; its call times out and the member turns suspect.
    const timedOut = await Promise.all(
      [0, 1].map(() => client.range(separate, Date.now() + 200).catch((e: unknown) => e)),
    );
    expect(timedOut.filter((r) => r instanceof GrpcError)).toHaveLength(1);
    for (let i = 0; i < 4; i++) await client.range(separate, soon());
    expect(hits).toEqual(['fast', 'fast', 'fast', 'fast', 'fast']);
    client.close();

    // With only the slow member, calls still go to it and are answered once it resumes.
    const alone = new EtcdKvClient([relay.url], { maxSendBytes: 1024 });
    const waiting = alone.range(separate, Date.now() + 3000);
    await expect(alone.range(separate, Date.now() + 200)).rejects.toMatchObject({
      code: GrpcCode.DEADLINE_EXCEEDED,
    });
    const after = alone.range(separate, Date.now() + 3000);
    setTimeout(() => relay.stall(false), 500);
    await expect(Promise.all([waiting, after])).resolves.toHaveLength(2);
    alone.close();
  }, 10_000);
});
