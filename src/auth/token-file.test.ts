import { describe, expect, it } from 'vitest';
import { generateAdminToken, parseTokenFile, TokenAuthenticator, TokenFileError } from './token-file.js';

describe('token file', () => {
  it('parses upstream CSV with quoted groups, comments and blank lines', () => {
    const entries = parseTokenFile('# comment\n\nt1,alice,u1,"dev,ops"\nt2,bob,u2\n');
    expect(entries).toEqual([
      { token: 't1', user: { name: 'alice', uid: 'u1', groups: ['dev', 'ops', 'system:authenticated'] } },
      { token: 't2', user: { name: 'bob', uid: 'u2', groups: ['system:authenticated'] } },
    ]);
  });
  it('names the line of a malformed entry', () => {
    expect(() => parseTokenFile('ok,a,b\nbroken,user\n')).toThrow(TokenFileError);
    expect(() => parseTokenFile('ok,a,b\nbroken,user\n')).toThrow(/line 2/);
  });
  it('authenticates bearer tokens only', () => {
    const admin = generateAdminToken();
    const auth = new TokenAuthenticator([admin]);
    expect(auth.authenticate(`Bearer ${admin.token}`)?.name).toBe('admin');
    expect(auth.authenticate(`bearer ${admin.token}`)?.groups).toContain('system:masters');
    expect(auth.authenticate('Bearer wrong')).toBeNull();
    expect(auth.authenticate(undefined)).toBeNull();
    expect(auth.authenticate(`Basic ${admin.token}`)).toBeNull();
  });
});
