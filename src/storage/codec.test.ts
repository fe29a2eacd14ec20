import { describe, expect, it } from 'vitest';
import { decodeObject, encodeObject } from './codec.js';

const kv = (value: string, modRevision = 7) => ({
  key: '/registry/configmaps/ns/a',
  value,
  modRevision,
  createRevision: 1,
  version: 1,
  lease: 0,
});

describe('storage codec', () => {
  it('stores objects without resourceVersion and selfLink, and stamps the revision on read', () => {
    const stored = encodeObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', resourceVersion: '3', selfLink: '/x', labels: { a: 'b' } },
      data: { k: 'v' },
    });
    expect(JSON.parse(stored)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', labels: { a: 'b' } },
      data: { k: 'v' },
    });
    expect(decodeObject(kv(stored))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', labels: { a: 'b' }, resourceVersion: '7' },
      data: { k: 'v' },
    });
    expect(decodeObject(kv(stored), 9).metadata.resourceVersion).toBe('9');
  });

  it('stores a new object (no resourceVersion or selfLink) as it is, and leaves the object unchanged either way', () => {
    const fresh = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', uid: 'u' }, data: { k: 'v' } };
    expect(encodeObject(fresh)).toBe(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","uid":"u"},"data":{"k":"v"}}',
    );
    const read = { ...fresh, metadata: { ...fresh.metadata, resourceVersion: '5', selfLink: '/x' } };
    expect(JSON.parse(encodeObject(read)).metadata).toEqual({ name: 'a', uid: 'u' });
    expect(read.metadata).toEqual({ name: 'a', uid: 'u', resourceVersion: '5', selfLink: '/x' });
  });

  it('reads stored values whose metadata is missing, null or not an object', () => {
    expect(decodeObject(kv('{"kind":"X"}')).metadata).toEqual({ resourceVersion: '7' });
    expect(decodeObject(kv('{"metadata":null}')).metadata).toEqual({ resourceVersion: '7' });
    expect(decodeObject(kv('{"metadata":[1]}')).metadata).toEqual({ 0: 1, resourceVersion: '7' });
  });

  it('answers a value that is not a JSON object with an Internal storage error', () => {
    expect(() => decodeObject(kv('{'))).toThrow(expect.objectContaining({ code: 'Internal' }));
    expect(() => decodeObject(kv('3'))).toThrow(expect.objectContaining({ code: 'Internal' }));
  });
});
