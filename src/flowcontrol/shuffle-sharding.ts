/**
 * Shuffle sharding (upstream k8s.io/apiserver pkg/util/shufflesharding) and the flow hash
 * (pkg/util/flowcontrol apf_controller.go hashFlowID): a flow's 64-bit hash deals it a hand of
 * `handSize` distinct queues out of `deckSize`, so that two flows rarely share a whole hand.
 */
import { createHash } from 'node:crypto';

/** Upstream's MaxHashBits: a hand may need at most this many bits of the hash. */
export const MAX_HASH_BITS = 60;

/** ceil(log2(deckSize) * handSize): the hash bits dealing one hand consumes. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** Deals hands of `handSize` cards from a deck of `deckSize`. */
export class Dealer {
  private readonly deck: bigint[];

  /** Throws Error (upstream's messages) when the sizes cannot deal from a 60-bit hash. */
  constructor(
    readonly deckSize: number,
    readonly handSize: number,
  ) {
    if (deckSize <= 0 || handSize <= 0) throw new Error(`deckSize ${deckSize} or handSize ${handSize} is not positive`);
    if (handSize > deckSize) throw new Error(`handSize ${handSize} is greater than deckSize ${deckSize}`);
    if (deckSize > 1 << 26) throw new Error(`deckSize ${deckSize} is impractically large`);
    if (requiredEntropyBits(deckSize, handSize) > MAX_HASH_BITS)
      throw new Error(
        `required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${MAX_HASH_BITS}`,
      );
    this.deck = Array.from({ length: handSize }, (_, i) => BigInt(deckSize - i));
  }

  /** The hand `hash` (an unsigned 64-bit value) deals: `handSize` distinct indexes below deckSize. */
  deal(hash: bigint): number[] {
    const remainders: number[] = [];
    let value = hash;
    for (let i = 0; i < this.handSize; i++) {
      const next = value / this.deck[i];
      remainders.push(Number(value - this.deck[i] * next));
      value = next;
    }
    const hand: number[] = [];
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i];
      for (let j = i; j > 0; j--) if (card >= remainders[j - 1]) card++;
      hand.push(card);
    }
    return hand;
  }
}

const hashes = new Map<string, bigint>();

/**
 * The flow's hash: the first 8 bytes, little-endian, of SHA-256 over the FlowSchema name, a
 * zero byte and the flow distinguisher (upstream hashFlowID). Remembered for the last 10,000 flows.
 */
export function hashFlowId(flowSchema: string, distinguisher: string): bigint {
  const key = `${flowSchema}\0${distinguisher}`;
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = createHash('sha256').update(key, 'utf8').digest().readBigUInt64LE(0);
    if (hashes.size >= 10_000) hashes.clear();
    hashes.set(key, hash);
  }
  return hash;
}
