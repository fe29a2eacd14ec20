import { describe, expect, it } from 'vitest';
import { parseEmulatedVersion } from './emulated-version.js';

describe('--emulated-version', () => {
  it("reads major.minor, with or without upstream's component prefix", () => {
    expect(parseEmulatedVersion('1.31')).toEqual({ major: 1, minor: 31 });
    expect(parseEmulatedVersion('kube=1.10')).toEqual({ major: 1, minor: 10 });
  });
  it('refuses malformed values, other components and versions outside what the server follows', () => {
    expect(() => parseEmulatedVersion('1.31.2')).toThrow('illegal version string "1.31.2"');
    expect(() => parseEmulatedVersion('wardle=1.2')).toThrow('unsupported component "wardle"');
    expect(() => parseEmulatedVersion('1.34')).toThrow('emulation version 1.34 is not between [1.10, 1.33]');
    expect(() => parseEmulatedVersion('1.9')).toThrow('emulation version 1.9 is not between [1.10, 1.33]');
  });
});
