import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDuplicateKeys } from './json-duplicates.js';

describe('jsonDuplicateKeys', () => {
  it('finds keys repeated within one object, at any depth, in the order met', () => {
    expect(jsonDuplicateKeys('{"a":1,"b":{"c":1,"c":2},"a":3,"d":[{"e":1,"e":2}],"a":4}')).toEqual([
      'c',
      'a',
      'e',
      'a',
    ]);
  });

  it('does not confuse values, escaped quotes or keys of sibling objects with repeats', () => {
    expect(jsonDuplicateKeys('{"a":"a","b":"\\"a\\"","c":[{"x":1},{"x":2}],"d":{"a":1}}')).toEqual([]);
    expect(jsonDuplicateKeys('{"\\u0061":1,"a":2}')).toEqual(['a']);
    expect(jsonDuplicateKeys('[1,"a",{"k":"v"},["k","k"]]')).toEqual([]);
  });

  it('answers for any text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', 'a', 'u') }), (text) =>
        Array.isArray(jsonDuplicateKeys(text)),
      ),
    );
  });

  it('agrees with a reference count on generated objects', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'a"b', 'é');
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.jsonValue({ maxDepth: 2 })), { maxLength: 8 }), (entries) => {
        const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        const seen = new Set<string>();
        const expected = entries.map(([k]) => k).filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
        // Nested values are generated from JSON.stringify of parsed values: they hold no duplicates.
        expect(jsonDuplicateKeys(text)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
