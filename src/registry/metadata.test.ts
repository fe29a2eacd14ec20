import { describe, expect, it } from 'vitest';
import { MINIMAL_OBJECTS } from '../../test/fixtures/minimal-objects.js';
import { configMaps as configmaps } from '../resources/configmaps/configmaps.resource.js';
import { beforeUpdate } from './metadata.js';

const stored = { metadata: { name: 'a', namespace: 'default', uid: 'u1', creationTimestamp: '2026-11-23T20:51:10Z' } };

describe('beforeUpdate', () => {
  it('takes the same creation instant written another way (Python clients send +00:00) as unchanged', () => {
    const obj = { metadata: { ...stored.metadata, creationTimestamp: '2026-11-23T20:51:10+00:00' } };
    expect(beforeUpdate(configmaps, obj, stored)).toEqual([]);
    expect(obj.metadata.creationTimestamp).toBe('2026-11-23T20:51:10Z');
  });

  it('still refuses a different creationTimestamp', () => {
    const obj = { metadata: { ...stored.metadata, creationTimestamp: '2026-11-23T21:51:10+00:00' } };
    expect(beforeUpdate(configmaps, obj, stored)).toEqual([
      expect.objectContaining({ field: 'metadata.creationTimestamp', reason: 'FieldValueInvalid' }),
    ]);
  });

  it('fills a missing creationTimestamp from the stored object', () => {
    const obj = MINIMAL_OBJECTS.configmaps.body('a') as { metadata: Record<string, unknown> };
    obj.metadata = { ...obj.metadata, namespace: 'default', uid: 'u1' };
    expect(beforeUpdate(configmaps, obj as never, stored)).toEqual([]);
    expect(obj.metadata.creationTimestamp).toBe(stored.metadata.creationTimestamp);
  });
});
