/**
 * The sending half of a client HTTP/2 connection (RFC 9113) and its state: dialling, the
 * preface, streams and their flow control, corked writes, and the end of the connection.
 * {@link H2Connection} adds the receiving half and the public calls.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import {
  DEFAULT_MAX_FRAME_SIZE,
  DEFAULT_WINDOW,
  Flag,
  FrameType,
  MAX_WINDOW,
  PREFACE,
  Setting,
  frame,
  settingsFrame,
  windowUpdate,
  writeFrameHeader,
} from './frames.js';
import type { H2Stream } from './h2-stream.js';

/** TLS material (PEM) for `https://` targets. */
export interface H2Tls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface H2ConnectionOptions {
  readonly tls?: H2Tls;
  /** Milliseconds the connection may take to be established. */
  readonly dialTimeoutMs: number;
  /** Told "<target>: <why>" when the connection could not be made, was lost or is going away with an error. */
  readonly onFailure?: (message: string) => void;
}

/** The stream window we announce (bytes): a large response is not paced by window updates. */
export const STREAM_WINDOW = 4 * 1024 * 1024;
/** The connection window we open (bytes). */
export const CONNECTION_WINDOW = 32 * 1024 * 1024;

/** See the file comment. */
export abstract class H2Transport {
  protected readonly socket: Socket;
  protected readonly streams = new Map<number, H2Stream>();
  /** Streams waiting for a slot under the peer's MAX_CONCURRENT_STREAMS. */
  protected readonly queued: H2Stream[] = [];
  /** Streams with request data held back by flow control. */
  protected readonly blocked = new Set<H2Stream>();
  protected nextStreamId = 1;
  protected peerMaxStreams = Infinity;
  protected peerInitialWindow = DEFAULT_WINDOW;
  protected peerMaxFrame = DEFAULT_MAX_FRAME_SIZE;
  /** Bytes the peer lets us send on the connection. */
  protected sendWindow = DEFAULT_WINDOW;
  /** Set by GOAWAY: no new stream may start. */
  protected goingAway = false;
  protected connected = false;
  private corked = false;
  private closedWith?: string;

  /** Dial `target` (`http://host:port` with prior knowledge, or `https://host:port` with ALPN h2) at once. */
  constructor(
    readonly target: string,
    protected readonly options: H2ConnectionOptions,
  ) {
    const url = new URL(target);
    const secure = url.protocol === 'https:';
    const port = Number(url.port || (secure ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const onConnected = () => {
      clearTimeout(dial);
      const alpn = secure ? (this.socket as TLSSocket).alpnProtocol : 'h2';
      if (alpn !== 'h2') return this.fail(`the server did not agree to HTTP/2 (ALPN ${String(alpn)})`);
      this.connected = true;
      this.socket.unref();
    };
    this.socket = secure
      ? tlsConnect(
          { host, port, servername: isIp(host) ? undefined : host, ALPNProtocols: ['h2'], ...options.tls },
          onConnected,
        )
      : netConnect({ host, port }, onConnected);
    this.socket.setNoDelay(true);
    const dial = setTimeout(() => this.fail(`dial timeout after ${options.dialTimeoutMs} ms`), options.dialTimeoutMs);
    dial.unref();
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (err) => this.fail(err.message));
    this.socket.on('close', () => {
      clearTimeout(dial);
      // A connection the peer closes cleanly is not a failure; one it never made is.
      this.fail('connection closed', !this.connected);
    });
    this.write(PREFACE);
    this.write(
      settingsFrame([
        [Setting.ENABLE_PUSH, 0],
        [Setting.INITIAL_WINDOW_SIZE, STREAM_WINDOW],
      ]),
    );
    this.write(windowUpdate(0, CONNECTION_WINDOW - DEFAULT_WINDOW));
  }

  /** True while new requests may start on this connection. */
  get usable(): boolean {
    return this.closedWith === undefined && !this.draining;
  }

  /** True once the connection has been lost or closed. */
  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Why the connection closed, once it has. */
  protected get closeReason(): string | undefined {
    return this.closedWith;
  }

  /** True when no new stream may start (GOAWAY, or stream ids spent): it closes after its last stream. */
  private get draining(): boolean {
    return this.goingAway || this.nextStreamId >= MAX_WINDOW;
  }

  /** Handle bytes read from the connection. */
  protected abstract read(chunk: Buffer): void;

  /** Open `stream` now, or queue it while the peer's concurrent-stream limit is reached. */
  protected open(stream: H2Stream): void {
    if (this.streams.size >= this.peerMaxStreams) this.queued.push(stream);
    else this.start(stream);
  }

  private start(stream: H2Stream): void {
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    stream.id = id;
    stream.sendWindow = this.peerInitialWindow;
    this.streams.set(id, stream);
    this.writeHeaderBlock(id, stream.headerBlock, stream.body.length === 0);
    if (stream.body.length) this.sendData(stream);
  }

  private writeHeaderBlock(id: number, block: Buffer, endStream: boolean): void {
    const max = this.peerMaxFrame;
    const last = block.length <= max;
    const flags = (last ? Flag.END_HEADERS : 0) | (endStream ? Flag.END_STREAM : 0);
    this.write(frame(FrameType.HEADERS, flags, id, block.subarray(0, max)));
    for (let at = max; at < block.length; at += max) {
      const part = block.subarray(at, at + max);
      this.write(frame(FrameType.CONTINUATION, at + max >= block.length ? Flag.END_HEADERS : 0, id, part));
    }
  }

  /** Send as much of `stream`'s body as the windows allow; the rest waits for WINDOW_UPDATE. */
  private sendData(stream: H2Stream): void {
    const { body } = stream;
    while (stream.bodyOffset < body.length) {
      const size = Math.min(body.length - stream.bodyOffset, stream.sendWindow, this.sendWindow, this.peerMaxFrame);
      if (size <= 0) {
        this.blocked.add(stream);
        return;
      }
      const end = stream.bodyOffset + size;
      const out = Buffer.allocUnsafe(9 + size);
      writeFrameHeader(out, 0, size, FrameType.DATA, end === body.length ? Flag.END_STREAM : 0, stream.id);
      body.copy(out, 9, stream.bodyOffset, end);
      this.write(out);
      stream.bodyOffset = end;
      stream.sendWindow -= size;
      this.sendWindow -= size;
    }
    this.blocked.delete(stream);
  }

  /** Send what flow control held back, as far as the windows now allow. */
  protected unblock(): void {
    for (const stream of [...this.blocked]) {
      if (this.sendWindow <= 0) return;
      this.sendData(stream);
    }
  }

  /** Start queued streams while the peer's limit allows. */
  protected startQueued(): void {
    while (this.queued.length && this.streams.size < this.peerMaxStreams && this.usable)
      this.start(this.queued.shift()!);
  }

  /** Forget `stream` (ended or reset), start what waited for its slot, and close a draining connection left idle. */
  protected release(stream: H2Stream): void {
    this.streams.delete(stream.id);
    this.blocked.delete(stream);
    this.endIfIdle();
    this.startQueued();
  }

  /** Close a draining connection once its last stream has ended. */
  protected endIfIdle(): void {
    if (this.draining && this.streams.size === 0 && !this.closed) this.socket.end();
  }

  /** Write `bytes`, corked until the end of this turn so that a turn's frames go out in one write. */
  protected write(bytes: Buffer): void {
    if (this.closed) return;
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(bytes);
  }

  /**
   * The connection is gone: fail every stream, once (`unsent` when it never connected), and
   * tell onFailure `why` when `report`.
   */
  protected fail(why: string, report = true): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = why;
    const wasConnected = this.connected;
    if (report) this.options.onFailure?.(`${this.target}: ${why}`);
    this.socket.destroy();
    const open = [...this.streams.values(), ...this.queued.splice(0)];
    this.streams.clear();
    this.blocked.clear();
    for (const stream of open) stream.finish({ error: `connection lost: ${why}`, unsent: !wasConnected, lost: true });
    this.onClosed();
  }

  /** Told once the connection has closed, after its streams failed. */
  protected abstract onClosed(): void;
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
