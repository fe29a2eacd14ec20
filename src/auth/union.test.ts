import { describe, expect, it } from 'vitest';
import type { UserInfo } from './user-info.js';
import { unionAuthenticator } from './union.js';

const user = (name: string): UserInfo => ({ name, uid: '', groups: ['system:authenticated'] });

describe('unionAuthenticator', () => {
  it('asks in order and the first that names a user answers; at once while each answers at once', async () => {
    const asked: string[] = [];
    const union = unionAuthenticator([
      { authenticate: (h) => (asked.push('file'), h === 'Bearer file' ? user('from-file') : null) },
      { authenticate: async (h) => (asked.push('sa'), h === 'Bearer sa' ? user('from-sa') : null) },
    ]);
    // A token the first knows: answered without a promise, the second never asked.
    const direct = union.authenticate('Bearer file');
    expect(direct).toEqual(user('from-file'));
    expect(asked).toEqual(['file']);
    // One only the second (asynchronous) knows, and one nobody knows.
    expect(await union.authenticate('Bearer sa')).toEqual(user('from-sa'));
    expect(await union.authenticate('Bearer nobody')).toBeNull();
    expect(asked).toEqual(['file', 'file', 'sa', 'file', 'sa']);
  });

  it('goes on after an asynchronous authenticator that knows nobody, and passes its failure on', async () => {
    const union = unionAuthenticator([
      { authenticate: async () => null },
      { authenticate: (h) => (h === 'Bearer x' ? user('x') : null) },
    ]);
    expect(await union.authenticate('Bearer x')).toEqual(user('x'));
    const failing = unionAuthenticator([
      {
        authenticate: async () => {
          throw new Error('key store unavailable');
        },
      },
    ]);
    await expect(failing.authenticate('Bearer x')).rejects.toThrow('key store unavailable');
  });
});
