import { describe, expect, it } from 'vitest';
import { computeConcurrencyAllocation } from './concurrency.js';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('computeConcurrencyAllocation', () => {
  it('divides in proportion to targets when no bound binds', () => {
    const { allocations } = computeConcurrencyAllocation(100, [
      { target: 10, lowerBound: 0, upperBound: 100 },
      { target: 30, lowerBound: 0, upperBound: 100 },
    ]);
    expect(allocations[0]).toBeCloseTo(25);
    expect(allocations[1]).toBeCloseTo(75);
  });

  it('keeps each class within its bounds and still gives out exactly the required sum', () => {
    const items = [
      { target: 20, lowerBound: 20, upperBound: 40 },
      { target: 50, lowerBound: 5, upperBound: 30 },
      { target: 50, lowerBound: 0, upperBound: 200 },
    ];
    const { allocations } = computeConcurrencyAllocation(120, items);
    expect(sum(allocations)).toBeCloseTo(120);
    allocations.forEach((a, i) => {
      expect(a).toBeGreaterThanOrEqual(items[i].lowerBound - 1e-9);
      expect(a).toBeLessThanOrEqual(items[i].upperBound + 1e-9);
    });
    // fairProp p solves 20p + 30 + 50p = 120 (the second class capped at 30): p = 9/7.
    expect(allocations[0]).toBeCloseTo((20 * 9) / 7);
    expect(allocations[1]).toBeCloseTo(30);
    expect(allocations[2]).toBeCloseTo((50 * 9) / 7);
  });

  it('refuses bounds that cannot add up', () => {
    expect(() => computeConcurrencyAllocation(10, [{ target: 20, lowerBound: 20, upperBound: 30 }])).toThrow(
      /lower bounds/,
    );
    expect(() => computeConcurrencyAllocation(100, [{ target: 1, lowerBound: 0, upperBound: 30 }])).toThrow(
      /upper bounds/,
    );
  });
});
