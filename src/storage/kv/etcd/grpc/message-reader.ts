/**
 * Splits the data of a streaming gRPC response into its messages (grpc/doc/PROTOCOL-HTTP2.md:
 * each message is a 1-byte compressed flag, a 4-byte big-endian length, then the message).
 * A message may arrive split over any number of chunks, and a chunk may hold several messages;
 * the bytes of a split message are joined once, when its last chunk arrives.
 */
export class MessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /**
   * Take one chunk and call `emit` with every message it completes, in order. The messages
   * may be views of the chunks: read them before the next call. Throws Error on a compressed
   * message (none is asked for, so the sender broke the protocol).
   */
  push(chunk: Buffer, emit: (message: Buffer) => void): void {
    if (this.buffered === 0 && chunk.length >= 5) {
      // The common case: the chunk starts with a message; read what it holds without copying.
      const used = this.readWhole(chunk, emit);
      if (used === chunk.length) return;
      chunk = chunk.subarray(used);
    }
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 5) {
      const head = this.chunks[0].length >= 5 ? this.chunks[0] : this.join();
      const size = 5 + messageLength(head);
      if (this.buffered < size) return;
      const all = this.join();
      const used = this.readWhole(all, emit);
      this.chunks = used === all.length ? [] : [all.subarray(used)];
      this.buffered = all.length - used;
    }
  }

  /** Bytes held back, waiting for the rest of a message. */
  get pending(): number {
    return this.buffered;
  }

  /** Emit the whole messages at the start of `data`; returns the bytes they took. */
  private readWhole(data: Buffer, emit: (message: Buffer) => void): number {
    let offset = 0;
    while (data.length - offset >= 5) {
      const size = messageLength(data.subarray(offset));
      if (data.length - offset - 5 < size) break;
      emit(data.subarray(offset + 5, offset + 5 + size));
      offset += 5 + size;
    }
    return offset;
  }

  /** The buffered chunks as one buffer (kept as the only chunk). */
  private join(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0];
  }
}

/** The length of the message whose 5-byte prefix starts `data`; throws on a compressed one. */
function messageLength(data: Buffer): number {
  if (data[0] !== 0) throw new Error('compressed gRPC message, which was not asked for');
  return data.readUInt32BE(1);
}
