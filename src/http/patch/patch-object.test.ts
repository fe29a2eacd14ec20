import { describe, expect, it } from 'vitest';
import { patchObject, JSON_PATCH, MERGE_PATCH, mergePatch, patchTypeOf } from './patch-object.js';

describe('patches', () => {
  const obj = { metadata: { name: 'a', labels: { x: '1', y: '2' } }, data: { k: 'v' } };
  it('merge patch sets, replaces and deletes keys (RFC 7386)', () => {
    expect(mergePatch(obj, { metadata: { labels: { x: null, z: '3' } }, data: 'flat' })).toEqual({
      metadata: { name: 'a', labels: { y: '2', z: '3' } },
      data: 'flat',
    });
  });
  it('json patch applies operations without touching the input', () => {
    const out = patchObject(JSON_PATCH, obj, [{ op: 'replace', path: '/data/k', value: 'w' }]);
    expect(out.data).toEqual({ k: 'w' });
    expect(obj.data.k).toBe('v');
  });
  it('a failed json patch test op is 422', () => {
    expect(() => patchObject(JSON_PATCH, obj, [{ op: 'test', path: '/data/k', value: 'nope' }])).toThrow(/rejected/);
  });
  it('server-side apply patches are 415 until implemented', () => {
    expect(() => patchTypeOf('application/apply-patch+yaml')).toThrow(/unknown format/);
    expect(patchTypeOf(MERGE_PATCH)).toBe(MERGE_PATCH);
    expect(patchTypeOf('application/strategic-merge-patch+json')).toBe('application/strategic-merge-patch+json');
  });
});
