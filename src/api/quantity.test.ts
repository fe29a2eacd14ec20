import { describe, expect, it } from 'vitest';
import { canonicalQuantity, compareQuantities, parseQuantity, QuantityError } from './quantity.js';
import { addLists, lessThanOrEqual, parseResourceList, prettyPrint } from './resource-list.js';

describe('quantities as upstream prints them', () => {
  it.each([
    ['100m', '100m'],
    ['0.1', '100m'],
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['100000', '100k'],
    ['1500', '1500'],
    ['1024', '1024'],
    ['1Ki', '1Ki'],
    ['1024Ki', '1Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Ki', '512'],
    ['1e3', '1e3'],
    ['12e6', '12e6'],
    ['1e100', '10e99'],
    ['2E', '2E'],
    ['3000E', '3000E'],
    ['0.1m', '100u'],
    ['0.0000000001', '1n'],
    ['-2', '-2'],
    ['0', '0'],
    ['.5', '500m'],
  ])('%s prints as %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it('reads JSON numbers as their decimal text', () => {
    expect(canonicalQuantity(2)).toBe('2');
    expect(canonicalQuantity(0.25)).toBe('250m');
  });

  it('compares across suffixes exactly', () => {
    expect(compareQuantities(parseQuantity('1Gi'), parseQuantity('1G'))).toBe(1);
    expect(compareQuantities(parseQuantity('1000m'), parseQuantity('1'))).toBe(0);
    expect(compareQuantities(parseQuantity('999m'), parseQuantity('1'))).toBe(-1);
  });

  it('rejects what is not a quantity', () => {
    for (const bad of ['', 'abc', '1Kb', '1.2.3', '--1', '1e1000']) expect(() => parseQuantity(bad)).toThrow(QuantityError);
  });

  it('sums, bounds and prints resource lists as the quota plugin does', () => {
    const used = addLists(parseResourceList({ 'requests.memory': '64Mi', pods: '1' }), parseResourceList({ 'requests.memory': '128Mi', pods: 1 }));
    expect(prettyPrint(used)).toBe('pods=2,requests.memory=192Mi');
    const check = lessThanOrEqual(used, parseResourceList({ pods: '1', 'requests.memory': '1Gi' }));
    expect(check).toEqual({ allowed: false, exceeded: ['pods'] });
  });
});
