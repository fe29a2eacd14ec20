/**
 * Random (version 4, RFC 9562) UUIDs as flat strings, the form upstream's uuid.New() gives uids
 * and audit IDs. Node's crypto.randomUUID builds its string by concatenation, and V8 keeps such
 * a string as a rope of 17 pieces (~550 bytes) for as long as it lives (an object's uid, a
 * watch's Audit-Id); flattening it afterwards costs another copy. Here the 36 characters are
 * written into a buffer and read out once as one flat string, from random bytes drawn in
 * batches from the same CSPRNG (crypto.randomFillSync), as Node's own implementation batches.
 */
import { randomFillSync } from 'node:crypto';

/** UUIDs drawn per refill of the pool. */
const BATCH = 128;
const pool = Buffer.allocUnsafe(16 * BATCH);
let next = pool.length;
const text = Buffer.allocUnsafe(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** A new random UUID, lower-case hex with dashes (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`). */
export function randomUuid(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const at = next;
  next += 16;
  pool[at + 6] = (pool[at + 6] & 0x0f) | 0x40; // version 4
  pool[at + 8] = (pool[at + 8] & 0x3f) | 0x80; // variant 10
  let j = 0;
  for (let i = 0; i < 16; i++) {
    const byte = pool[at + i];
    text[j++] = HEX[byte >> 4];
    text[j++] = HEX[byte & 15];
    // A '-' after bytes 4, 6, 8 and 10: 8-4-4-4-12 hex digits.
    if (i === 3 || i === 5 || i === 7 || i === 9) text[j++] = 0x2d;
  }
  return text.toString('latin1', 0, 36);
}
