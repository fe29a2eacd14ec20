import { describe, expect, it } from 'vitest';
import { jsonTextDepth, MAX_NESTING_DEPTH, measureValue, valueProblem } from './nesting.js';

const nested = (d: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < d; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('nesting bounds', () => {
  it('measures the nesting of JSON text outside strings and stops early', () => {
    expect(jsonTextDepth('{"a":[1,{"b":"[[[{{{"}]}')).toBe(3);
    expect(jsonTextDepth('"\\"[[["')).toBe(0);
    expect(jsonTextDepth('['.repeat(1_000_000), 100)).toBe(101);
  });
  it('accepts a value exactly at the limit and refuses one level more, without recursing', () => {
    expect(valueProblem(nested(MAX_NESTING_DEPTH))).toBeNull();
    expect(valueProblem(nested(MAX_NESTING_DEPTH + 1))?.reason).toBe('depth');
    expect(valueProblem(nested(200_000))?.reason).toBe('depth');
  });
  it('reports a value that contains itself as too deep', () => {
    const a: any[] = [];
    a.push(a);
    expect(valueProblem(a)?.reason).toBe('depth');
  });
  it('refuses values without a JSON form and names where they are', () => {
    expect(valueProblem({ spec: { n: Infinity } })).toMatchObject({ reason: 'type', at: '/spec/n' });
    expect(valueProblem({ b: new Uint8Array(2) })?.message).toMatch(/Uint8Array/);
    expect(valueProblem({ m: new Map() })?.reason).toBe('type');
    expect(valueProblem(JSON.parse('{"__proto__":{"x":-0}}'))).toBeNull();
  });
  it('counts values', () => {
    expect(valueProblem(new Array(10).fill(0), 100, 5)?.reason).toBe('count');
    expect(measureValue({ a: [1, 2], b: 'x' })).toEqual({ depth: 2, count: 5 });
  });
});
