/**
 * HTTP/2 frames (RFC 9113 section 4 and 6): the 9-byte frame header, the frame types and flags
 * a gRPC client meets, and a reader that cuts a connection's byte stream into frames.
 */

/** Frame types (RFC 9113 section 6). */
export const FrameType = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
} as const;

/** Frame flags (RFC 9113 section 6); ACK and END_STREAM share a bit on different frame types. */
export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

/** SETTINGS parameters (RFC 9113 section 6.5.2). */
export const Setting = {
  HEADER_TABLE_SIZE: 1,
  ENABLE_PUSH: 2,
  MAX_CONCURRENT_STREAMS: 3,
  INITIAL_WINDOW_SIZE: 4,
  MAX_FRAME_SIZE: 5,
  MAX_HEADER_LIST_SIZE: 6,
} as const;

/** Error codes (RFC 9113 section 7). */
export const H2Error = {
  NO_ERROR: 0,
  PROTOCOL_ERROR: 1,
  INTERNAL_ERROR: 2,
  FLOW_CONTROL_ERROR: 3,
  FRAME_SIZE_ERROR: 6,
  REFUSED_STREAM: 7,
  CANCEL: 8,
  COMPRESSION_ERROR: 9,
  ENHANCE_YOUR_CALM: 11,
} as const;

/** The client connection preface (RFC 9113 section 3.4). */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** The largest frame payload either side may send before SETTINGS say otherwise (2^14 bytes). */
export const DEFAULT_MAX_FRAME_SIZE = 16_384;
/** The flow-control window of a new stream and of the connection before any update (2^16 - 1). */
export const DEFAULT_WINDOW = 65_535;
/** The largest flow-control window (2^31 - 1). */
export const MAX_WINDOW = 0x7fffffff;

/** A frame as read: `payload` is a view of the connection's bytes (read it before the next chunk). */
export interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly streamId: number;
  readonly payload: Buffer;
}

/** A frame with `payload` (any length up to the peer's maximum), as bytes to write. */
export function frame(type: number, flags: number, streamId: number, payload?: Uint8Array): Buffer {
  const length = payload ? payload.length : 0;
  const out = Buffer.allocUnsafe(9 + length);
  writeFrameHeader(out, 0, length, type, flags, streamId);
  if (payload) out.set(payload, 9);
  return out;
}

/** Write a 9-byte frame header into `out` at `offset`. */
export function writeFrameHeader(
  out: Buffer,
  offset: number,
  length: number,
  type: number,
  flags: number,
  streamId: number,
): void {
  out[offset] = (length >>> 16) & 0xff;
  out[offset + 1] = (length >>> 8) & 0xff;
  out[offset + 2] = length & 0xff;
  out[offset + 3] = type;
  out[offset + 4] = flags;
  out.writeUInt32BE(streamId & MAX_WINDOW, offset + 5);
}

/** A WINDOW_UPDATE frame granting `increment` bytes (1 to 2^31 - 1) on `streamId` (0: the connection). */
export function windowUpdate(streamId: number, increment: number): Buffer {
  const out = frame(FrameType.WINDOW_UPDATE, 0, streamId, Buffer.alloc(4));
  out.writeUInt32BE(increment & MAX_WINDOW, 9);
  return out;
}

/** A RST_STREAM frame for `streamId` with error `code`. */
export function rstStream(streamId: number, code: number): Buffer {
  const out = frame(FrameType.RST_STREAM, 0, streamId, Buffer.alloc(4));
  out.writeUInt32BE(code, 9);
  return out;
}

/** A SETTINGS frame of `[parameter, value]` pairs (empty with ACK). */
export function settingsFrame(pairs: readonly (readonly [number, number])[], ack = false): Buffer {
  const payload = Buffer.allocUnsafe(6 * pairs.length);
  pairs.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(FrameType.SETTINGS, ack ? Flag.ACK : 0, 0, payload);
}

/** A protocol violation by the peer; the connection is closed with `code` (an {@link H2Error}). */
export class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Cuts the bytes read from a connection into frames. Frames are handed out as views of the
 * chunks they arrived in; a frame split over chunks is joined once, when its last byte arrives.
 */
export class FrameReader {
  private held?: Buffer;

  /** @param maxFrameSize the largest payload accepted (what our SETTINGS announced). */
  constructor(private readonly maxFrameSize = DEFAULT_MAX_FRAME_SIZE) {}

  /**
   * Take one chunk and call `emit` with every frame it completes, in order. Throws
   * ConnectionError FRAME_SIZE_ERROR for a frame over the maximum size.
   */
  push(chunk: Buffer, emit: (f: Frame) => void): void {
    const data = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = undefined;
    let offset = 0;
    while (data.length - offset >= 9) {
      const length = (data[offset] << 16) | (data[offset + 1] << 8) | data[offset + 2];
      if (length > this.maxFrameSize)
        throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, `frame of ${length} bytes over ${this.maxFrameSize}`);
      const end = offset + 9 + length;
      if (end > data.length) break;
      emit({
        type: data[offset + 3],
        flags: data[offset + 4],
        streamId: data.readUInt32BE(offset + 5) & MAX_WINDOW,
        payload: data.subarray(offset + 9, end),
      });
      offset = end;
    }
    if (offset < data.length) {
      // Keep the rest in a buffer of its own: a view would hold the whole chunk.
      this.held = Buffer.from(data.subarray(offset));
    }
  }
}

/**
 * The payload of a DATA or HEADERS frame without its padding (and, for HEADERS, without the
 * priority fields). Throws ConnectionError PROTOCOL_ERROR when the padding is longer than the frame.
 */
export function unpadded(f: Frame): Buffer {
  let start = 0;
  let end = f.payload.length;
  if (f.flags & Flag.PADDED) {
    if (end < 1) throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'padded frame without its pad length');
    end -= f.payload[0];
    start = 1;
  }
  if (f.type === FrameType.HEADERS && f.flags & Flag.PRIORITY) start += 5;
  if (end < start) throw new ConnectionError(H2Error.PROTOCOL_ERROR, 'padding longer than the frame');
  return f.payload.subarray(start, end);
}
