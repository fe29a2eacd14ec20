import { describe, expect, it } from 'vitest';
import {
  validateDns1035Label,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validatePathSegmentName,
  validateQualifiedName,
} from './names.js';

describe('name rules', () => {
  it.each([
    [validateDns1123Subdomain, 'web.example-1', true],
    [validateDns1123Subdomain, 'Web', false],
    [validateDns1123Subdomain, 'a'.repeat(254), false],
    [validateDns1123Label, 'team-a', true],
    [validateDns1123Label, 'team.a', false],
    [validateDns1035Label, 'svc-1', true],
    [validateDns1035Label, '1svc', false],
    [validateLabelValue, '', true],
    [validateLabelValue, 'v1.2_x', true],
    [validateLabelValue, '-bad', false],
    [validateQualifiedName, 'example.com/app', true],
    [validateQualifiedName, 'app', true],
    [validateQualifiedName, 'a b', false],
    [validateQualifiedName, '/app', false],
    [validatePathSegmentName, '..', false],
    [validatePathSegmentName, 'a%2f', false],
  ] as const)('%o(%s) valid=%s', (fn, value, ok) => {
    expect(fn(value).length === 0).toBe(ok);
  });

  it('words messages as upstream', () => {
    expect(validateDns1123Label('x'.repeat(64))[0]).toBe('must be no more than 63 characters');
    expect(validateDns1123Subdomain('A')[0]).toMatch(
      /^a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters/,
    );
  });
});
