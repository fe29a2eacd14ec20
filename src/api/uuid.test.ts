import { describe, expect, it } from 'vitest';
import { randomUuid } from './uuid.js';

describe('randomUuid', () => {
  it('gives version 4, variant 10 UUIDs in lower-case 8-4-4-4-12 form, none repeated', () => {
    // More than one batch of the pool, so a refill is crossed too.
    const ids = Array.from({ length: 1000 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit in the random positions', () => {
    const seen = new Set(
      Array.from({ length: 200 }, () => randomUuid())
        .join('')
        .replace(/-/g, ''),
    );
    expect([...seen].sort().join('')).toBe('0123456789abcdef');
  });
});
