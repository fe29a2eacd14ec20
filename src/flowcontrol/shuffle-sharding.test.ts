import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Dealer, hashFlowId, requiredEntropyBits } from './shuffle-sharding.js';

describe('Dealer', () => {
  it('deals hands of distinct cards below the deck size, the same hand for the same hash', () => {
    const dealer = new Dealer(64, 8);
    for (let i = 0n; i < 200n; i++) {
      const hash = (i * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
      const hand = dealer.deal(hash);
      expect(hand).toHaveLength(8);
      expect(new Set(hand).size).toBe(8);
      expect(hand.every((c) => c >= 0 && c < 64)).toBe(true);
      expect(dealer.deal(hash)).toEqual(hand);
    }
  });

  it('deals the first card as the hash modulo the deck (upstream: remainders, then skipping cards dealt)', () => {
    const dealer = new Dealer(10, 3);
    // 1234 = 4 + 10 * 123; 123 = 6 + 9 * 13; 13 = 5 + 8 * 1: remainders 4, 6, 5 -> cards 4, 7 (6 skips 4), 6 (5 skips 4).
    expect(dealer.deal(1234n)).toEqual([4, 7, 6]);
  });

  it("refuses shapes upstream refuses, with upstream's messages", () => {
    expect(() => new Dealer(0, 1)).toThrow('deckSize 0 or handSize 1 is not positive');
    expect(() => new Dealer(4, 5)).toThrow('handSize 5 is greater than deckSize 4');
    expect(requiredEntropyBits(128, 9)).toBe(63);
    expect(() => new Dealer(128, 9)).toThrow('required entropy bits of deckSize 128 and handSize 9 is greater than 60');
  });
});

describe('hashFlowId', () => {
  it('is the first 8 bytes, little-endian, of SHA-256 of schema, NUL, distinguisher', () => {
    const bytes = createHash('sha256').update(Buffer.from('global-default\0alice')).digest();
    let expected = 0n;
    for (let i = 7; i >= 0; i--) expected = (expected << 8n) | BigInt(bytes[i]);
    expect(hashFlowId('global-default', 'alice')).toBe(expected);
    expect(hashFlowId('global-default', 'bob')).not.toBe(expected);
  });
});
