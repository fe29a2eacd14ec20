import { afterEach, describe, expect, it, vi } from 'vitest';
import { deepCopy, keep, kept, rfc3339 } from './object.js';

describe('rfc3339', () => {
  it('gives UTC at second precision, as metav1.Time marshals', () => {
    expect(rfc3339(new Date('2018-03-26T15:04:05.999Z'))).toBe('2018-03-26T15:04:05Z');
    expect(rfc3339(new Date('1970-01-01T00:00:00.000Z'))).toBe('1970-01-01T00:00:00Z');
  });

  afterEach(() => vi.useRealTimers());
  it('gives the current time without a date, following the clock from one second to the next', () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T10:00:00.250Z') });
    expect(rfc3339()).toBe('2026-11-25T10:00:00Z');
    vi.setSystemTime(new Date('2026-11-25T10:00:00.999Z'));
    expect(rfc3339()).toBe('2026-11-25T10:00:00Z');
    vi.setSystemTime(new Date('2026-11-25T10:00:01.000Z'));
    expect(rfc3339()).toBe('2026-11-25T10:00:01Z');
    vi.setSystemTime(new Date('2026-11-25T09:59:59.500Z'));
    expect(rfc3339()).toBe('2026-11-25T09:59:59Z');
  });
});

describe('keep and kept', () => {
  it('keep a derived value on an object where JSON, spreads, keys and copies do not see it', () => {
    const slot = Symbol('derived');
    const obj = { metadata: { name: 'a' } };
    expect(kept(obj, slot)).toBeUndefined();
    const value = { derived: true };
    expect(keep(obj, slot, value)).toBe(value);
    expect(kept(obj, slot)).toBe(value);
    expect(JSON.stringify(obj)).toBe('{"metadata":{"name":"a"}}');
    expect(Object.keys(obj)).toEqual(['metadata']);
    expect(kept({ ...obj }, slot)).toBeUndefined();
    expect(kept(deepCopy(obj), slot)).toBeUndefined();
    expect(deepCopy(obj)).toEqual(obj);
  });

  it('keep nothing on an object that cannot be extended', () => {
    const slot = Symbol('derived');
    const frozen = Object.freeze({ a: 1 });
    expect(keep(frozen, slot, 5)).toBe(5);
    expect(kept(frozen, slot)).toBeUndefined();
  });
});
