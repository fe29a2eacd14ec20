import { describe, expect, it } from 'vitest';
import { HpackError } from './hpack-error.js';
import { HUFFMAN_CODES, HUFFMAN_LENGTHS } from './huffman-table.js';
import { huffmanDecode } from './huffman.js';

/** Huffman-encode a byte string (test-only reference encoder), padding with ones. */
function encode(s: string): Uint8Array {
  let bits = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    bits += HUFFMAN_CODES[c].toString(2).padStart(HUFFMAN_LENGTHS[c], '0');
  }
  bits += '1'.repeat((8 - (bits.length % 8)) % 8);
  return Uint8Array.from(bits.match(/.{8}/g) ?? [], (b) => parseInt(b, 2));
}

const decode = (hex: string): string => {
  const b = Buffer.from(hex, 'hex');
  return huffmanDecode(b, 0, b.length);
};

describe('huffmanDecode', () => {
  it('decodes the RFC 7541 Appendix C strings', () => {
    expect(decode('f1e3c2e5f23a6ba0ab90f4ff')).toBe('www.example.com');
    expect(decode('a8eb10649cbf')).toBe('no-cache');
    expect(decode('25a849e95ba97d7f')).toBe('custom-key');
    expect(decode('25a849e95bb8e8b4bf')).toBe('custom-value');
    expect(decode('6402')).toBe('302');
    expect(decode('aec3771a4b')).toBe('private');
    expect(decode('d07abe941054d444a8200595040b8166e082a62d1bff')).toBe('Mon, 21 Oct 2013 20:13:21 GMT');
    expect(decode('9d29ad171863c78f0b97c8e9ae82ae43d3')).toBe('https://www.example.com');
  });

  it('decodes the empty string', () => {
    expect(huffmanDecode(new Uint8Array(0), 0, 0)).toBe('');
  });

  it('decodes every octet, alone and all together, within a larger buffer', () => {
    let all = '';
    for (let c = 0; c < 256; c++) {
      const s = String.fromCharCode(c);
      all += s;
      const e = encode(s);
      expect(huffmanDecode(e, 0, e.length)).toBe(s);
    }
    const e = encode(all + all);
    const framed = new Uint8Array(e.length + 6);
    framed.set(e, 3);
    expect(huffmanDecode(framed, 3, 3 + e.length)).toBe(all + all);
  });

  it('rejects EOS inside the string', () => {
    // 'a' (00011) then EOS (30 ones), padded with ones: 00011111 x5.
    expect(() => decode('1fffffffff')).toThrow(HpackError);
    expect(() => decode('ffffffff')).toThrow(HpackError);
  });

  it('rejects padding longer than 7 bits', () => {
    // '0' is 00000; then 11 ones of padding.
    expect(() => decode('07ff')).toThrow(HpackError);
    expect(() => decode('ff')).toThrow(HpackError);
    expect(decode('07')).toBe('0');
  });

  it('rejects padding that is not all ones, or a truncated code', () => {
    expect(() => decode('00')).toThrow(HpackError); // '0' then 000
    expect(() => decode('06')).toThrow(HpackError); // '0' then 110
    expect(() => decode('fe')).toThrow(HpackError); // 8 bits of a longer code
  });
});
