import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedMap } from './sorted-map.js';

describe('SortedMap', () => {
  it('agrees with a Map sorted by key under any mix of sets, deletes and range reads, across chunk splits', () => {
    const key = fc.integer({ min: 0, max: 3000 }).map((n) => `/k/${n.toString(36)}`);
    const op = fc.oneof(
      fc.record({ set: key, value: fc.integer() }),
      fc.record({ del: key }),
      fc.record({ start: key, end: fc.oneof(key, fc.constant('\0')) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1500, maxLength: 3000 }), (ops) => {
        const map = new SortedMap<number>();
        const model = new Map<string, number>();
        const inRange = (start: string, end: string) =>
          [...model]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .filter(([k]) => k >= start && (end === '\0' || k < end));
        for (const o of ops) {
          if ('set' in o) {
            map.set(o.set, o.value);
            model.set(o.set, o.value);
          } else if ('del' in o) expect(map.delete(o.del)).toBe(model.delete(o.del));
          else {
            const want = inRange(o.start, o.end);
            expect(map.keys(o.start, o.end)).toEqual(want.map(([k]) => k));
            const seen: [string, number][] = [];
            map.scan(o.start, o.end, (k, v) => void seen.push([k, v]));
            expect(seen).toEqual(want);
          }
        }
        expect(map.size).toBe(model.size);
        expect(map.keys('', '\0')).toEqual([...model.keys()].sort());
      }),
      { numRuns: 30 },
    );
    // Thousands of operations per run: on a loaded 2-core machine this takes more than the default 20 s.
  }, 120_000);

  it('scans nothing when the range is empty or reversed', () => {
    const map = new SortedMap<number>();
    for (let i = 0; i < 2000; i++) map.set(`k${String(i).padStart(4, '0')}`, i);
    expect(map.keys('k1000', 'k1000')).toEqual([]);
    expect(map.keys('k1500', 'k0500')).toEqual([]);
    expect(map.keys('k1999', '\0')).toEqual(['k1999']);
    expect(map.keys('l', '\0')).toEqual([]);
    map.clear();
    expect(map.keys('', '\0')).toEqual([]);
  });
});
