/**
 * A client HTTP/2 connection (RFC 9113) for request-response exchanges: the transport of the
 * etcd client's unary gRPC calls. It exists for CPU: a call through node:http2 cost 40-55 µs
 * of client CPU (its ClientHttp2Stream is a full Duplex stream with five events per call),
 * about a quarter of the API server's CPU per create; here a call is a few frames written with
 * the rest of its event-loop turn's in one corked socket write, and a small state record.
 *
 *  - Dials `http://` with prior knowledge (h2c) or `https://` with ALPN `h2`; sends the preface
 *    and SETTINGS (no push, a 4 MiB stream window) and widens the connection window to 32 MiB.
 *  - Requests are HEADERS (+ CONTINUATION) and DATA frames; DATA honours the peer's stream and
 *    connection windows and maximum frame size, waiting for WINDOW_UPDATE when they are spent
 *    (h2-transport.ts). Streams over the peer's MAX_CONCURRENT_STREAMS wait for a free slot.
 *  - Responses: HEADERS, DATA (padding removed), trailers; windows are re-opened as data is
 *    read; SETTINGS and PING are answered. PUSH_PROMISE, malformed frames and header blocks
 *    over 1 MiB close the connection (GOAWAY PROTOCOL_ERROR), as do HPACK errors
 *    (COMPRESSION_ERROR).
 *  - On GOAWAY, streams the peer did not take (above its last stream id) fail as `unsent`; the
 *    others finish; no new stream starts and the connection closes after its last one. Once the
 *    connection is lost, every open stream fails (`unsent` when the socket never connected).
 */
import { HpackDecoder, encodeHeaders } from './hpack.js';
import {
  ConnectionError,
  DEFAULT_MAX_FRAME_SIZE,
  Flag,
  FrameReader,
  FrameType,
  H2Error,
  MAX_WINDOW,
  Setting,
  frame,
  rstStream,
  settingsFrame,
  unpadded,
  windowUpdate,
  type Frame,
} from './frames.js';
import { H2Stream, type H2Outcome } from './h2-stream.js';
import { CONNECTION_WINDOW, H2Transport, STREAM_WINDOW } from './h2-transport.js';

export type { H2ConnectionOptions, H2Tls } from './h2-transport.js';
export type { H2Outcome, H2Response } from './h2-stream.js';

/** The largest header block accepted (bytes, across CONTINUATION frames). */
const MAX_HEADER_BLOCK = 1024 * 1024;

/** A request in progress; {@link cancel} resets it (RST_STREAM CANCEL) and ends it without telling its outcome. */
export interface H2Request {
  cancel(): void;
}

/** See the file comment. */
export class H2Connection extends H2Transport {
  private readonly reader = new FrameReader(DEFAULT_MAX_FRAME_SIZE);
  private readonly decoder = new HpackDecoder();
  /** Bytes of DATA read on the connection since its window was last re-opened. */
  private unacknowledged = 0;
  /** The header block being continued (CONTINUATION): its stream, if still open, and its parts. */
  private continuing?: { stream?: H2Stream; parts: Buffer[]; size: number; endStream: boolean };
  private pingCallbacks: ((ok: boolean) => void)[] = [];

  /**
   * Send a request of `headers` (name-value pairs, pseudo-headers first) and `body`, ending the
   * stream; `done` is told its outcome once (see {@link H2Outcome}), never synchronously.
   */
  request(
    headers: ReadonlyArray<readonly [string, string]>,
    body: Buffer,
    done: (outcome: H2Outcome) => void,
  ): H2Request {
    const stream = new H2Stream(encodeHeaders(headers), body, done);
    if (this.usable) this.open(stream);
    else {
      const why = this.closeReason ?? 'connection going away';
      const lost = this.closed;
      queueMicrotask(() => stream.finish({ error: why, unsent: true, lost }));
    }
    return { cancel: () => this.cancel(stream) };
  }

  /**
   * Send a PING; `answered(true)` when its ACK arrives, `answered(false)` when the connection
   * closes first. Returns false (and sends nothing) while another ping is unanswered.
   */
  ping(answered: (ok: boolean) => void): boolean {
    if (this.closed || this.pingCallbacks.length) return false;
    this.pingCallbacks.push(answered);
    this.write(frame(FrameType.PING, 0, 0, Buffer.alloc(8)));
    return true;
  }

  /** Close the connection; open streams fail with `why`, which onFailure is told (none given: a close asked for, not reported). */
  destroy(why?: string): void {
    this.fail(why ?? 'connection closed', why !== undefined);
  }

  private cancel(stream: H2Stream): void {
    if (stream.ended) return;
    stream.ended = true;
    const at = this.queued.indexOf(stream);
    if (at >= 0) return void this.queued.splice(at, 1);
    if (!this.streams.has(stream.id)) return;
    this.write(rstStream(stream.id, H2Error.CANCEL));
    this.release(stream);
  }

  protected read(chunk: Buffer): void {
    try {
      this.reader.push(chunk, (f) => this.onFrame(f));
    } catch (err) {
      const code = err instanceof ConnectionError ? err.code : H2Error.COMPRESSION_ERROR;
      this.fail(`protocol error: ${err instanceof Error ? err.message : String(err)} (${code})`);
    }
  }

  protected onClosed(): void {
    for (const cb of this.pingCallbacks.splice(0)) cb(false);
  }

  private onFrame(f: Frame): void {
    if (this.continuing && f.type !== FrameType.CONTINUATION)
      throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'header block not continued');
    switch (f.type) {
      case FrameType.DATA:
        return this.onData(f);
      case FrameType.HEADERS:
        return this.onHeaders(f);
      case FrameType.CONTINUATION:
        return this.onContinuation(f);
      case FrameType.RST_STREAM:
        return this.onReset(f);
      case FrameType.SETTINGS:
        return this.onSettings(f);
      case FrameType.PING:
        return this.onPing(f);
      case FrameType.GOAWAY:
        return this.onGoAway(f);
      case FrameType.WINDOW_UPDATE:
        return this.onWindowUpdate(f);
      case FrameType.PUSH_PROMISE:
        throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'PUSH_PROMISE, which was disabled');
      default:
        // PRIORITY and unknown frame types are ignored (RFC 9113 sections 5.5 and 6.3).
        return;
    }
  }

  private onData(f: Frame): void {
    if (f.streamId === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'DATA on stream 0');
    this.unacknowledged += f.payload.length;
    if (this.unacknowledged >= CONNECTION_WINDOW / 2) {
      this.write(windowUpdate(0, this.unacknowledged));
      this.unacknowledged = 0;
    }
    const stream = this.streams.get(f.streamId);
    if (!stream) return;
    stream.data(unpadded(f), f.payload.length);
    if (f.flags & Flag.END_STREAM) return this.complete(stream);
    if (stream.unacknowledged >= STREAM_WINDOW / 2) {
      this.write(windowUpdate(stream.id, stream.unacknowledged));
      stream.unacknowledged = 0;
    }
  }

  private onHeaders(f: Frame): void {
    if (f.streamId === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'HEADERS on stream 0');
    const block = unpadded(f);
    const stream = this.streams.get(f.streamId);
    const endStream = (f.flags & Flag.END_STREAM) !== 0;
    if (f.flags & Flag.END_HEADERS) return this.headerBlock(stream, block, endStream);
    this.continuing = { stream, parts: [Buffer.from(block)], size: block.length, endStream };
  }

  private onContinuation(f: Frame): void {
    const c = this.continuing;
    if (!c) throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'CONTINUATION without HEADERS');
    c.size += f.payload.length;
    if (c.size > MAX_HEADER_BLOCK)
      throw new ConnectionError(H2Error.PROTOCOL_ERROR, `header block over ${MAX_HEADER_BLOCK} bytes`);
    c.parts.push(Buffer.from(f.payload));
    if (!(f.flags & Flag.END_HEADERS)) return;
    this.continuing = undefined;
    this.headerBlock(c.stream, Buffer.concat(c.parts), c.endStream);
  }

  /** A whole header block: decoded always (it changes the HPACK table), kept when its stream is open. */
  private headerBlock(stream: H2Stream | undefined, block: Buffer, endStream: boolean): void {
    const fields = this.decoder.decode(block);
    if (!stream) return;
    stream.headers(fields);
    if (endStream) this.complete(stream);
  }

  private complete(stream: H2Stream): void {
    this.release(stream);
    stream.complete();
  }

  private onReset(f: Frame): void {
    const stream = this.streams.get(f.streamId);
    if (!stream || f.payload.length < 4) return;
    const code = f.payload.readUInt32BE(0);
    this.release(stream);
    const error = `stream reset by the server (code ${code})`;
    stream.finish({ error, unsent: code === H2Error.REFUSED_STREAM, lost: false, resetCode: code });
  }

  private onSettings(f: Frame): void {
    if (f.flags & Flag.ACK) return;
    if (f.payload.length % 6) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, 'SETTINGS of a partial entry');
    for (let at = 0; at < f.payload.length; at += 6) {
      const id = f.payload.readUInt16BE(at);
      const value = f.payload.readUInt32BE(at + 2);
      if (id === Setting.MAX_CONCURRENT_STREAMS) this.peerMaxStreams = value;
      else if (id === Setting.MAX_FRAME_SIZE)
        this.peerMaxFrame = Math.max(DEFAULT_MAX_FRAME_SIZE, Math.min(value, 16_777_215));
      else if (id === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, 'initial window too large');
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const s of this.streams.values()) s.sendWindow += delta;
      }
    }
    this.write(settingsFrame([], true));
    this.unblock();
    this.startQueued();
  }

  private onPing(f: Frame): void {
    if (f.payload.length !== 8) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, 'PING of other than 8 bytes');
    if (!(f.flags & Flag.ACK)) return this.write(frame(FrameType.PING, Flag.ACK, 0, f.payload));
    for (const cb of this.pingCallbacks.splice(0)) cb(true);
  }

  private onGoAway(f: Frame): void {
    if (f.payload.length < 8) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, 'short GOAWAY');
    this.goingAway = true;
    const last = f.payload.readUInt32BE(0) & MAX_WINDOW;
    const code = f.payload.readUInt32BE(4);
    const debug = f.payload.subarray(8).toString('latin1');
    const why = `GOAWAY (code ${code}${debug ? `: ${debug}` : ''})`;
    if (code !== H2Error.NO_ERROR) this.options.onFailure?.(`${this.target}: ${why}`);
    const refused = [...this.queued.splice(0), ...[...this.streams.values()].filter((s) => s.id > last)];
    for (const stream of refused) {
      if (stream.id) this.release(stream);
      stream.finish({ error: why, unsent: true, lost: false });
    }
    this.endIfIdle();
  }

  private onWindowUpdate(f: Frame): void {
    if (f.payload.length !== 4)
      throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, 'WINDOW_UPDATE of other than 4 bytes');
    const increment = f.payload.readUInt32BE(0) & MAX_WINDOW;
    if (f.streamId === 0) this.sendWindow += increment;
    else {
      const stream = this.streams.get(f.streamId);
      if (stream) stream.sendWindow += increment;
    }
    this.unblock();
  }
}
