/**
 * HPACK Huffman decoding (RFC 7541 section 5.2, code in Appendix B) by a state machine over
 * 4-bit nibbles, built once at module load: a state is an internal node of the code tree
 * (256 of them, the root is 0), and each (state, nibble) entry gives the next state and the
 * octet completed on the way, if any (no code is shorter than 5 bits, so at most one per nibble).
 */
import { HpackError } from './hpack-error.js';
import { HUFFMAN_CODES, HUFFMAN_LENGTHS } from './huffman-table.js';

const EOS = 256;
/** Entry flags: an octet was completed; EOS was decoded; the state may end a string (padding). */
const EMIT = 1 << 17;
const FAIL = 1 << 18;
const ACCEPT = 1 << 19;

/**
 * Transition table, `16 * state + nibble` -> `next | octet << 8 | flags`: `next` (bits 0-7) the
 * state after the nibble, `octet` (bits 8-15) the octet decoded when EMIT is set, ACCEPT when
 * `next` may end a string (the bits since the last octet are all ones and fewer than 8).
 */
const TRANSITIONS: Int32Array = buildTransitions();

function buildTransitions(): Int32Array {
  // The code tree: children[2 * node + bit] is an internal node (>= 0) or a leaf -(symbol + 1).
  const children: number[] = [0, 0];
  const accepting: boolean[] = [true];
  let nodes = 1;
  for (let sym = 0; sym <= EOS; sym++) {
    const code = HUFFMAN_CODES[sym];
    const len = HUFFMAN_LENGTHS[sym];
    let node = 0;
    let ones = true;
    for (let i = len - 1; i > 0; i--) {
      const bit = (code >>> i) & 1;
      ones &&= bit === 1;
      let child = children[2 * node + bit];
      if (child === 0) {
        child = nodes++;
        children[2 * node + bit] = child;
        children.push(0, 0);
        accepting[child] = ones && len - i <= 7;
      }
      node = child;
    }
    children[2 * node + (code & 1)] = -(sym + 1);
  }
  const table = new Int32Array(nodes * 16);
  for (let state = 0; state < nodes; state++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let node = state;
      let entry = 0;
      for (let i = 3; i >= 0; i--) {
        const child = children[2 * node + ((nibble >>> i) & 1)];
        if (child >= 0) {
          node = child;
        } else if (-child - 1 === EOS) {
          entry |= FAIL;
          break;
        } else {
          entry |= EMIT | ((-child - 1) << 8);
          node = 0;
        }
      }
      table[16 * state + nibble] = entry | node | (accepting[node] ? ACCEPT : 0);
    }
  }
  return table;
}

/** Scratch output, grown as needed (decoding is synchronous). */
let scratch = Buffer.allocUnsafe(256);

/**
 * Decode the Huffman-coded octets `bytes[start, end)` (RFC 7541 section 5.2).
 * Returns the decoded octets as a byte string (Latin-1: one char per octet).
 * Throws HpackError when the string holds EOS, or ends in padding longer than 7 bits or
 * not all ones (which includes a truncated code).
 */
export function huffmanDecode(bytes: Uint8Array, start: number, end: number): string {
  // Each octet of input yields at most 8 / 5 octets of output.
  const most = Math.ceil(((end - start) * 8) / 5);
  if (scratch.length < most) scratch = Buffer.allocUnsafe(Math.max(most, scratch.length * 2));
  const out = scratch;
  let n = 0;
  let state = 0;
  let entry = ACCEPT;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    entry = TRANSITIONS[(state << 4) | (b >>> 4)];
    if (entry & FAIL) throw new HpackError('EOS in a Huffman-coded string');
    if (entry & EMIT) out[n++] = (entry >>> 8) & 0xff;
    state = entry & 0xff;
    entry = TRANSITIONS[(state << 4) | (b & 0xf)];
    if (entry & FAIL) throw new HpackError('EOS in a Huffman-coded string');
    if (entry & EMIT) out[n++] = (entry >>> 8) & 0xff;
    state = entry & 0xff;
  }
  if ((entry & ACCEPT) === 0) throw new HpackError('bad padding in a Huffman-coded string');
  return out.toString('latin1', 0, n);
}
