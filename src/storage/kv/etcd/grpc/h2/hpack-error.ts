/**
 * A header block that cannot be decoded (RFC 7541): truncated or malformed, an index out of
 * range, an integer over 2^31 - 1 or overlong, a bad Huffman string, a table size update
 * that is too large or out of place. HTTP/2 treats it as a connection error (COMPRESSION_ERROR).
 */
export class HpackError extends Error {
  constructor(message: string) {
    super(`HPACK: ${message}`);
    this.name = 'HpackError';
  }
}
