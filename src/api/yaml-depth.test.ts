import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { measureValue } from './nesting.js';
import { yamlDepthBound } from './yaml-depth.js';

describe('YAML nesting bound', () => {
  it('is at least the real depth for any document, in block and flow style', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.boolean(), (value, flow) => {
        const text = stringify(value, { collectionStyle: flow ? 'flow' : 'block' });
        expect(yamlDepthBound(text, 10_000)).toBeGreaterThanOrEqual(measureValue(value).depth);
      }),
      { numRuns: 300 },
    );
  });
  it('counts compact sequences, explicit keys, indentation and flow collections, and stops early', () => {
    expect(yamlDepthBound('- '.repeat(50) + 'x', 10_000)).toBeGreaterThanOrEqual(50);
    expect(yamlDepthBound('? '.repeat(50) + 'x', 10_000)).toBeGreaterThanOrEqual(50);
    expect(
      yamlDepthBound(Array.from({ length: 50 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1', 10_000),
    ).toBeGreaterThanOrEqual(50);
    expect(
      yamlDepthBound(
        'a:\n' +
          Array.from({ length: 30 }, (_, i) => ' '.repeat(2 * i) + 'b:\n' + ' '.repeat(2 * i) + '-').join('\n') +
          ' 1',
        10_000,
      ),
    ).toBeGreaterThanOrEqual(60);
    expect(yamlDepthBound('['.repeat(1_000_000), 200)).toBe(201);
  });
  it('does not count brackets inside quoted or block scalars', () => {
    expect(yamlDepthBound('a: "[[[[[[[[[["\nb: |\n  {{{{{{{{{{\n', 10_000)).toBeLessThan(6);
  });
});
