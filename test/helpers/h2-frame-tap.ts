/**
 * A TCP relay in front of one etcd member that reads the HTTP/2 frames passing through it
 * (RFC 9113 section 4.1: a 9-byte header of length, type, flags and stream id; the client's
 * side starts with the 24-byte connection preface). It records what gRPC's keepalive
 * enforcement is about: every PING the client sends (not the ACKs of etcd's pings), by
 * connection and time, and every GOAWAY etcd sends, with its error code and debug data
 * (`too_many_pings` with ENHANCE_YOUR_CALM, code 11, when the client pinged too often).
 * Bytes are relayed unchanged; a frame's payload is kept only for PING and GOAWAY.
 *
 * etcd 3.4 logs "Got too many pings" only at debug level with its zap logger, so its own
 * log is no witness at default flags; the wire is.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** A GOAWAY frame etcd sent to the client. */
export interface GoAway {
  /** HTTP/2 error code (11 = ENHANCE_YOUR_CALM). */
  readonly code: number;
  /** The frame's debug data as text (`too_many_pings`). */
  readonly debug: string;
  /** When it passed (ms since the epoch). */
  readonly at: number;
}

export interface FrameTap {
  /** `http://127.0.0.1:<port>` to give the client instead of the member's endpoint. */
  readonly endpoint: string;
  /** Client PINGs (not ACKs) per connection, in order of the connections' opening: times in ms since the epoch. */
  readonly pings: number[][];
  /** GOAWAY frames from etcd, on every connection. */
  readonly goaways: GoAway[];
  /** Connections the client opened through the tap. */
  connections(): number;
  /** Stop listening and drop every relayed connection. */
  close(): Promise<void>;
}

const PREFACE_LENGTH = 24;
const PING = 0x6;
const GOAWAY = 0x7;
const ACK = 0x1;

/** Reads frame headers from a byte stream; hands the payloads of `wanted` frame types to `onFrame`. */
class FrameReader {
  private header = Buffer.alloc(0);
  private payload: Buffer[] = [];
  private left = 0;
  private current: { type: number; flags: number } | undefined;

  constructor(
    private prefaceLeft: number,
    private readonly wanted: ReadonlySet<number>,
    private readonly onFrame: (type: number, flags: number, payload: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    if (this.prefaceLeft > 0) {
      const n = Math.min(this.prefaceLeft, chunk.length);
      this.prefaceLeft -= n;
      at = n;
    }
    while (at < chunk.length) {
      if (this.current) {
        const n = Math.min(this.left, chunk.length - at);
        if (this.wanted.has(this.current.type)) this.payload.push(chunk.subarray(at, at + n));
        this.left -= n;
        at += n;
        if (this.left === 0) this.finish();
        continue;
      }
      const need = 9 - this.header.length;
      const n = Math.min(need, chunk.length - at);
      this.header = Buffer.concat([this.header, chunk.subarray(at, at + n)]);
      at += n;
      if (this.header.length < 9) return;
      this.left = this.header.readUIntBE(0, 3);
      this.current = { type: this.header[3]!, flags: this.header[4]! };
      this.header = Buffer.alloc(0);
      if (this.left === 0) this.finish();
    }
  }

  private finish(): void {
    const { type, flags } = this.current!;
    if (this.wanted.has(type)) this.onFrame(type, flags, Buffer.concat(this.payload));
    this.payload = [];
    this.current = undefined;
  }
}

/**
 * Listen on a free 127.0.0.1 port and relay each connection to `target` (`http://host:port`).
 * Resolves once listening; throws when the port cannot be bound.
 */
export async function startFrameTap(target: string): Promise<FrameTap> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const pings: number[][] = [];
  const goaways: GoAway[] = [];
  let opened = 0;
  const server: Server = createServer((client) => {
    opened++;
    const mine: number[] = [];
    pings.push(mine);
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    const fromClient = new FrameReader(PREFACE_LENGTH, new Set([PING]), (_type, flags) => {
      if (!(flags & ACK)) mine.push(Date.now());
    });
    const fromEtcd = new FrameReader(0, new Set([GOAWAY]), (_type, _flags, payload) => {
      goaways.push({ code: payload.readUInt32BE(4), debug: payload.subarray(8).toString(), at: Date.now() });
    });
    client.on('data', (chunk: Buffer) => fromClient.push(chunk));
    upstream.on('data', (chunk: Buffer) => fromEtcd.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pings,
    goaways,
    connections: () => opened,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
