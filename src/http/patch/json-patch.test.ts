import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch.js';

describe('bounded JSON patch', () => {
  const obj = { metadata: { name: 'a' }, data: { k: 'v' } };
  it('applies operations to a copy', () => {
    expect(
      applyJsonPatch(obj, [
        { op: 'add', path: '/data/x', value: { y: [1] } },
        { op: 'remove', path: '/data/k' },
      ]),
    ).toEqual({ metadata: { name: 'a' }, data: { x: { y: [1] } } });
    expect(obj.data).toEqual({ k: 'v' });
  });
  it('does not share inserted values with the patch, which may be applied again on a retry', () => {
    const ops = [
      { op: 'add', path: '/data/x', value: { y: 1 } },
      { op: 'add', path: '/data/x/z', value: 2 },
    ];
    applyJsonPatch(obj, ops);
    expect(ops[0].value).toEqual({ y: 1 });
  });
  it('refuses copies that would double the object past the value bound, with 422', () => {
    const ops = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/x${i}` }));
    expect(() => applyJsonPatch(obj, ops)).toThrow(
      expect.objectContaining({ code: 422, message: expect.stringMatching(/more than 3000000 values/) }),
    );
  });
  it('refuses operations that would nest the object deeper than 100 levels, with 422', () => {
    const ops = Array.from({ length: 120 }, () => ({ op: 'copy', from: '/data', path: '/data/k' }));
    expect(() => applyJsonPatch(obj, ops)).toThrow(
      expect.objectContaining({ code: 422, message: expect.stringMatching(/deeper than 100 levels/) }),
    );
  });
  it('answers 422 for operations that cannot be applied', () => {
    for (const op of [
      { op: 'test', path: '/data/k', value: 'w' },
      { op: 'remove', path: '/nope/x' },
      { op: 'bogus', path: '/a' },
      5,
      { op: 'add', path: '/__proto__/x', value: 1 },
    ]) {
      expect(() => applyJsonPatch(obj, [op])).toThrow(expect.objectContaining({ code: 422 }));
    }
  });
});
