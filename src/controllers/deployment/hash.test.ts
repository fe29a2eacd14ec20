// Ports upstream pkg/controller/controller_utils_test.go TestComputeHash and
// deployment/util/hash_test.go TestPodTemplateSpecHash, plus rand's SafeEncodeString alphabet.
import { describe, expect, it } from 'vitest';
import { computeHash, safeEncodeString } from './hash.js';

describe('computeHash (upstream TestComputeHash)', () => {
  it.each([
    ['simple', 1, 2],
    ['using math.MaxInt32', undefined, 2147483647],
  ])('%s: different collision counts give different hashes', (_name, a, b) => {
    expect(computeHash({}, a)).not.toBe(computeHash({}, b));
  });

  it('is stable and ignores key order', () => {
    const a = { metadata: { labels: { x: '1', y: '2' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const b = { spec: { containers: [{ image: 'i', name: 'c' }] }, metadata: { labels: { y: '2', x: '1' } } };
    expect(computeHash(a)).toBe(computeHash(b));
  });

  it('gives 1000 different templates 1000 different hashes (upstream TestPodTemplateSpecHash)', () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const hash = computeHash({ spec: { containers: [{ name: 'nginx', image: `nginx:1.${i}` }] } });
      expect(seen.get(hash), `hash ${hash} of ${i}`).toBeUndefined();
      seen.set(hash, i);
    }
  });
});

describe('safeEncodeString', () => {
  it('maps each byte to the vowel-free alphabet', () => {
    const out = safeEncodeString('4026531840');
    expect(out).toHaveLength(10);
    expect(out).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    // '0' is byte 48: 48 % 27 = 21 -> '4'; '1' is 49 -> '5'.
    expect(safeEncodeString('01')).toBe('45');
  });
});
