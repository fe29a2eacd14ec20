// The formats upstream 1.33 checks in CRD schemas (apiextensions formats.go, kube-openapi strfmt).
import { describe, expect, it } from 'vitest';
import { checkFormat, isSupportedFormat } from './formats.js';

describe('CRD string formats', () => {
  it('supports upstream list only; others are ignored', () => {
    for (const f of ['date-time', 'datetime', 'date', 'uuid', 'byte', 'ipv4', 'cidr', 'mac'])
      expect(isSupportedFormat(f)).toBe(true);
    for (const f of ['int32', 'int64', 'float', 'double', 'k8s-short-name', 'quantity'])
      expect(isSupportedFormat(f)).toBe(false);
  });

  it.each([
    ['date-time', '2014-12-15T19:30:20.000Z', true],
    ['date-time', '2014-12-15t19:30:20+01:00', true],
    ['date-time', '2014-12-15T25:30:20Z', false],
    ['date-time', '2014-02-30T10:00:00Z', false],
    ['date', '2020-02-29', true],
    ['date', '2021-02-29', false],
    ['uuid', '6BA7B810-9DAD-11D1-80B4-00C04FD430C8', true],
    ['uuid4', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '010.0.0.1', false],
    ['ipv4', '::1', false],
    ['ipv6', '2001:db8::1', true],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['mac', '00:00:5e:00:53:01', true],
    ['mac', '0000.5e00.5301', true],
    ['mac', '00:00:5e:00:53', false],
    ['hostname', 'example.com', true],
    ['hostname', '-bad.com', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'not base64!', false],
    ['uri', 'https://example.com/x?y=1', true],
    ['uri', '/relative/path', true],
    ['uri', 'no scheme', false],
    ['email', 'user@example.com', true],
    ['email', 'User <user@example.com>', true],
    ['email', 'not-an-email', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['isbn10', '0321751043', true],
    ['isbn13', '978-0321751041', true],
    ['creditcard', '4111 1111 1111 1111', true],
    ['creditcard', '4111 1111 1111 1112', false],
    ['ssn', '123-45-6789', true],
    ['hexcolor', '#FFF', true],
    ['rgbcolor', 'rgb(255, 0, 10)', true],
    ['rgbcolor', 'rgb(256,0,0)', false],
    ['bsonobjectid', '507f1f77bcf86cd799439011', true],
    ['password', 'anything', true],
  ])('%s %j: %s', (f, v, ok) => expect(checkFormat(f, v)).toBe(ok));
});
