import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { checkProxyableIP, encodeQuery, joinPath, splitSchemeNamePort } from './location.js';
import { describeDialError, joinHostPort } from './host-port.js';

describe('connect location helpers', () => {
  it('splits [scheme:]name[:port] as upstream SplitSchemeNamePort', () => {
    expect(splitSchemeNamePort('web')).toEqual({ scheme: '', name: 'web', port: '' });
    expect(splitSchemeNamePort('web:80')).toEqual({ scheme: '', name: 'web', port: '80' });
    expect(splitSchemeNamePort('https:web:443')).toEqual({ scheme: 'https', name: 'web', port: '443' });
    for (const bad of ['ftp:web:21', ':80', 'a:b:c:d', '']) expect(splitSchemeNamePort(bad)).toBeUndefined();
  });

  it('refuses addresses a proxy may not reach (upstream IsProxyableIP)', () => {
    for (const ok of ['10.0.0.1', '2001:db8::1']) expect(() => checkProxyableIP(ok)).not.toThrow();
    for (const bad of [undefined, '', 'host', '127.0.0.1', '169.254.1.1', '::1', 'fe80::1']) {
      expect(() => checkProxyableIP(bad)).toThrow(ApiError);
    }
  });

  it('encodes queries as Go url.Values.Encode and joins paths keeping a trailing slash', () => {
    expect(
      encodeQuery([
        ['output', '1'],
        ['command', 'echo'],
        ['command', 'a b'],
      ]),
    ).toBe('command=echo&command=a+b&output=1');
    expect([joinPath('', ''), joinPath('', '/a/b/'), joinPath('/x/', '/y')]).toEqual(['/', '/a/b/', '/x/y']);
  });

  it('words dial failures as Go 1.9/1.10 does', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(describeDialError(err('ECONNREFUSED'), '10.0.0.1', joinHostPort('10.0.0.1', 10250))).toBe(
      'dial tcp 10.0.0.1:10250: getsockopt: connection refused',
    );
    expect(describeDialError(err('ENOTFOUND'), 'node-a', 'node-a:10250')).toBe('dial tcp: lookup node-a: no such host');
    expect(joinHostPort('fd00::1', 10250)).toBe('[fd00::1]:10250');
  });
});
