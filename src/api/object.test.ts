import { describe, expect, it } from 'vitest';
import { rfc3339 } from './object.js';

describe('rfc3339', () => {
  it('gives UTC at second precision, as metav1.Time marshals', () => {
    expect(rfc3339(new Date('2018-03-26T15:04:05.999Z'))).toBe('2018-03-26T15:04:05Z');
    expect(rfc3339(new Date('1970-01-01T00:00:00.000Z'))).toBe('1970-01-01T00:00:00Z');
  });
});
