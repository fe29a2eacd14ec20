/**
 * HPACK header compression (RFC 7541) for HTTP/2 header blocks: a full decoder for what a
 * server sends (static and dynamic tables, Huffman strings), and a stateless encoder for the
 * requests (every field a literal without indexing, so the peer's table is never used).
 * Names and values are byte strings both ways: Latin-1, one JS char per octet.
 */
import { HpackError } from './hpack-error.js';
import { huffmanDecode } from './huffman.js';

export { HpackError } from './hpack-error.js';

/** The static table (RFC 7541 Appendix A): entry i is index i + 1. */
const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

/** Index in the static table of the first entry with each name. */
const STATIC_NAME_INDEX = new Map<string, number>();
STATIC_TABLE.forEach(([name], i) => {
  if (!STATIC_NAME_INDEX.has(name)) STATIC_NAME_INDEX.set(name, i + 1);
});

/** Largest integer accepted in a header block (indices, lengths, table sizes). */
const MAX_INTEGER = 0x7fffffff;
/** Octets an entry costs in the dynamic table beyond its name and value (RFC 7541 section 4.1). */
const ENTRY_OVERHEAD = 32;
const EMPTY = new Uint8Array(0);

/**
 * Decodes the header blocks of one HTTP/2 connection's receiving side, in order: the dynamic
 * table carries over from one block to the next. After an HpackError the table is in an
 * unknown state; the connection must be closed (COMPRESSION_ERROR).
 */
export class HpackDecoder {
  /** Dynamic table entries, oldest first from `head`: the newest is index 62. */
  private readonly names: string[] = [];
  private readonly values: string[] = [];
  private head = 0;
  /** Octets the dynamic table holds (sum of entry sizes). */
  private size = 0;
  /** Octets the dynamic table may hold, as last set by the peer's size update. */
  private capacity: number;
  /** The block being decoded and the read position in it. */
  private block: Uint8Array = EMPTY;
  private pos = 0;

  /** `maxTableSize`: octets the peer may make the dynamic table (our SETTINGS_HEADER_TABLE_SIZE). */
  constructor(private readonly maxTableSize = 4096) {
    this.capacity = maxTableSize;
  }

  /**
   * Decode one complete header block (the HEADERS and CONTINUATION payloads joined), updating
   * the dynamic table. Returns its fields in order as [name, value] byte strings.
   * Throws HpackError on any malformed block.
   */
  decode(block: Uint8Array): Array<[name: string, value: string]> {
    this.block = block;
    this.pos = 0;
    const fields: Array<[string, string]> = [];
    try {
      while (this.pos < block.length) {
        const b = block[this.pos];
        if (b & 0x80) {
          // Indexed header field (section 6.1).
          const index = this.integer(7);
          if (index === 0) throw new HpackError('index 0');
          fields.push(this.entry(index));
        } else if (b & 0x40) {
          // Literal with incremental indexing (section 6.2.1).
          const field = this.literal(6);
          this.insert(field[0], field[1]);
          fields.push(field);
        } else if (b & 0x20) {
          // Dynamic table size update (section 6.3): only before the first field.
          if (fields.length > 0) throw new HpackError('table size update after a header field');
          const size = this.integer(5);
          if (size > this.maxTableSize) throw new HpackError(`table size ${size} over ${this.maxTableSize}`);
          this.capacity = size;
          this.evict(0);
        } else {
          // Literal without indexing (0000) or never indexed (0001) (sections 6.2.2, 6.2.3).
          fields.push(this.literal(4));
        }
      }
    } finally {
      this.block = EMPTY;
    }
    return fields;
  }

  /** Octets the dynamic table holds now. */
  get tableSize(): number {
    return this.size;
  }

  /** Entries in the dynamic table now. */
  get tableLength(): number {
    return this.names.length - this.head;
  }

  /** The field at `index` (1-based, static then dynamic); throws HpackError when out of range. */
  private entry(index: number): [string, string] {
    if (index <= STATIC_TABLE.length) {
      const [name, value] = STATIC_TABLE[index - 1];
      return [name, value];
    }
    const i = this.names.length - 1 - (index - STATIC_TABLE.length - 1);
    if (i < this.head) throw new HpackError(`index ${index} out of range`);
    return [this.names[i], this.values[i]];
  }

  /** A literal field whose representation has a name index of `prefix` bits (0: a new name follows). */
  private literal(prefix: number): [string, string] {
    const index = this.integer(prefix);
    const name = index === 0 ? this.string() : this.entry(index)[0];
    return [name, this.string()];
  }

  /** Add an entry to the dynamic table, evicting the oldest to make room (section 4.4). */
  private insert(name: string, value: string): void {
    const entrySize = name.length + value.length + ENTRY_OVERHEAD;
    this.evict(entrySize);
    if (entrySize > this.capacity) return;
    this.names.push(name);
    this.values.push(value);
    this.size += entrySize;
  }

  /** Evict the oldest entries until `room` more octets fit (or the table is empty). */
  private evict(room: number): void {
    while (this.size + room > this.capacity && this.head < this.names.length) {
      this.size -= this.names[this.head].length + this.values[this.head].length + ENTRY_OVERHEAD;
      this.head++;
    }
    if (this.head === this.names.length) {
      this.names.length = 0;
      this.values.length = 0;
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.names.length) {
      this.names.splice(0, this.head);
      this.values.splice(0, this.head);
      this.head = 0;
    }
  }

  /** An integer with a `prefix`-bit prefix (section 5.1) at the read position. */
  private integer(prefix: number): number {
    const block = this.block;
    const mask = (1 << prefix) - 1;
    let value = block[this.pos++] & mask;
    if (value < mask) return value;
    for (let shift = 0; ; shift += 7) {
      if (this.pos >= block.length) throw new HpackError('truncated integer');
      if (shift > 28) throw new HpackError('integer too large');
      const b = block[this.pos++];
      if (b === 0 && shift > 0) throw new HpackError('overlong integer');
      value += (b & 0x7f) * 2 ** shift;
      if (value > MAX_INTEGER) throw new HpackError('integer too large');
      if ((b & 0x80) === 0) return value;
    }
  }

  /** A string literal (section 5.2) at the read position, as a byte string. */
  private string(): string {
    const block = this.block;
    if (this.pos >= block.length) throw new HpackError('truncated string');
    const huffman = (block[this.pos] & 0x80) !== 0;
    const length = this.integer(7);
    const start = this.pos;
    if (length > block.length - start) throw new HpackError('truncated string');
    this.pos = start + length;
    if (huffman) return huffmanDecode(block, start, this.pos);
    return latin1(block, start, this.pos);
  }
}

/** `bytes[start, end)` as a byte string. */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, end);
}

/** Octets an integer `value` takes with a `prefix`-bit prefix. */
function integerLength(prefix: number, value: number): number {
  const mask = (1 << prefix) - 1;
  if (value < mask) return 1;
  let n = 2;
  for (let rest = value - mask; rest >= 0x80; rest = Math.floor(rest / 128)) n++;
  return n;
}

/** Write `value` with a `prefix`-bit prefix (its other bits zero) at `pos`; returns the end. */
function writeInteger(out: Buffer, pos: number, prefix: number, value: number): number {
  const mask = (1 << prefix) - 1;
  if (value < mask) {
    out[pos] = value;
    return pos + 1;
  }
  out[pos++] = mask;
  let rest = value - mask;
  for (; rest >= 0x80; rest = Math.floor(rest / 128)) out[pos++] = (rest % 128) | 0x80;
  out[pos++] = rest;
  return pos;
}

/** Write `s` as a raw string literal (section 5.2, H = 0) at `pos`, short ones by a loop (faster than Buffer#write); returns the end. */
function writeString(out: Buffer, pos: number, s: string): number {
  pos = writeInteger(out, pos, 7, s.length);
  if (s.length > 24) return pos + out.write(s, pos, 'latin1');
  for (let i = 0; i < s.length; i++) out[pos++] = s.charCodeAt(i);
  return pos;
}

/**
 * Encode a request's header fields as one header block: each field a literal without indexing
 * (section 6.2.2), naming the first static table entry with its name when there is one, with
 * raw (not Huffman-coded) strings. Names and values must be byte strings (chars 0-255; a char
 * above 255 is written as its low octet). Names are written as given (HTTP/2 wants lower case).
 */
export function encodeHeaders(headers: ReadonlyArray<readonly [string, string]>): Buffer {
  const indices: number[] = new Array<number>(headers.length);
  let total = 0;
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i];
    const index = STATIC_NAME_INDEX.get(name) ?? 0;
    indices[i] = index;
    total += index === 0 ? 1 + integerLength(7, name.length) + name.length : integerLength(4, index);
    total += integerLength(7, value.length) + value.length;
  }
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i];
    pos = writeInteger(out, pos, 4, indices[i]);
    if (indices[i] === 0) pos = writeString(out, pos, name);
    pos = writeString(out, pos, value);
  }
  return out;
}
