import { afterEach, describe, expect, it, vi } from 'vitest';
import { deepCopy, keep, kept, rfc3339, withOwn } from './object.js';

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

describe('withOwn', () => {
  it('copies with one key set: in its place when present, else last, as a spread would', () => {
    const meta = { name: 'a', resourceVersion: '5', uid: 'u' };
    const replaced = withOwn(meta, 'resourceVersion', '7');
    expect(JSON.stringify(replaced)).toBe(JSON.stringify({ ...meta, resourceVersion: '7' }));
    expect(Object.keys(replaced)).toEqual(['name', 'resourceVersion', 'uid']);
    const added = withOwn(meta, 'selfLink', '/x');
    expect(Object.keys(added)).toEqual(['name', 'resourceVersion', 'uid', 'selfLink']);
    // The original is left as it was.
    expect(meta).toEqual({ name: 'a', resourceVersion: '5', uid: 'u' });
  });

  it('keeps a `__proto__` key as data, as JSON.parse and a spread give it', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"name":"a"}') as Record<string, unknown>;
    const copy = withOwn(parsed, 'uid', 'u');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"name":"a","uid":"u"}');
  });
});
