import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MessageReader } from './message-reader.js';

/** `messages` as a gRPC response body (uncompressed, length-prefixed). */
function body(messages: Uint8Array[]): Buffer {
  return Buffer.concat(
    messages.map((m) => {
      const head = Buffer.alloc(5);
      head.writeUInt32BE(m.length, 1);
      return Buffer.concat([head, m]);
    }),
  );
}

/** Feed `data` to a reader in pieces cut at `cuts` (offsets); returns the messages emitted. */
function read(data: Buffer, cuts: number[]): { messages: string[]; pending: number } {
  const reader = new MessageReader();
  const messages: string[] = [];
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...points, data.length]) {
    if (to <= from) continue;
    // A copy, as each chunk of a socket is its own buffer.
    reader.push(Buffer.from(data.subarray(from, to)), (m) => messages.push(m.toString('hex')));
    from = to;
  }
  return { messages, pending: reader.pending };
}

describe('MessageReader', () => {
  it('emits every message once, in order, however the body is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (messages, cuts) => {
          const { messages: out, pending } = read(body(messages), cuts);
          expect(out).toEqual(messages.map((m) => Buffer.from(m).toString('hex')));
          expect(pending).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('holds back a message until its last byte arrives', () => {
    const data = body([Buffer.from('first'), Buffer.from('second message')]);
    const reader = new MessageReader();
    const seen: string[] = [];
    reader.push(data.subarray(0, 13), (m) => seen.push(m.toString()));
    expect(seen).toEqual(['first']);
    expect(reader.pending).toBe(3);
    reader.push(data.subarray(13, 20), (m) => seen.push(m.toString()));
    expect(seen).toEqual(['first']);
    reader.push(data.subarray(20), (m) => seen.push(m.toString()));
    expect(seen).toEqual(['first', 'second message']);
    expect(reader.pending).toBe(0);
  });

  it('refuses a compressed message', () => {
    const data = body([Buffer.from('x')]);
    data[0] = 1;
    expect(() => new MessageReader().push(data, () => undefined)).toThrow(/compressed/);
  });
});
