import { describe, expect, it } from 'vitest';
import { KvError } from '../storage/kv/types.js';
import { storageErrorOf } from '../storage/codec.js';
import { toApiError } from './translate-error.js';

const ctx = { resource: 'pods', group: '', name: 'p', operation: 'POST' } as const;

describe('toApiError', () => {
  it("answers a write over the storage's size limit with 413 RequestEntityTooLarge, not 500", () => {
    const err = toApiError(
      storageErrorOf(new KvError('TooLarge', '3 INVALID_ARGUMENT: etcdserver: request is too large'), 'pods/ns/p'),
      ctx,
    );
    expect(err.code).toBe(413);
    expect(err.reason).toBe('RequestEntityTooLarge');
    expect(err.message).toBe('Request entity too large: etcdserver: request is too large');
  });
});
