import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted-keys.js';

describe('SortedKeys', () => {
  it('agrees with a sorted array under any mix of inserts, deletes and range reads, across chunk splits', () => {
    const key = fc.integer({ min: 0, max: 3000 }).map((n) => `/k/${n.toString(36)}`);
    const op = fc.oneof(
      fc.record({ insert: key }),
      fc.record({ del: key }),
      fc.record({ start: key, end: fc.oneof(key, fc.constant('\0')) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1500, maxLength: 3000 }), (ops) => {
        const keys = new SortedKeys();
        const model = new Set<string>();
        for (const o of ops) {
          if ('insert' in o) (keys.insert(o.insert), model.add(o.insert));
          else if ('del' in o) (keys.delete(o.del), model.delete(o.del));
          else {
            const want = [...model].sort().filter((k) => k >= o.start && (o.end === '\0' || k < o.end));
            expect(keys.range(o.start, o.end)).toEqual(want);
          }
        }
        expect(keys.size).toBe(model.size);
        expect(keys.range('', '\0')).toEqual([...model].sort());
      }),
      { numRuns: 30 },
    );
  });
});
