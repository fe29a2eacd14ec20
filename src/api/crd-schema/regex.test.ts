// Go RE2 patterns as kube-openapi evaluates them (unanchored), and Go's compile errors.
import { describe, expect, it } from 'vitest';
import { compilePattern, goRegexpError } from './regex.js';

const matches = (p: string, s: string) => {
  const c = compilePattern(p);
  if (c.error !== undefined) throw new Error(c.error);
  return c.re.test(s);
};

describe('compilePattern (Go regexp semantics)', () => {
  it.each([
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-name', true],
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'My-name', false],
    ['abc', 'xxabcxx', true],
    ['(?i)^abc$', 'ABC', true],
    ['^a\\sb$', 'a\u00a0b', false],
    ['^a\\sb$', 'a b', true],
    ['^\\d$', '٣', false],
    ['^\\w$', 'é', false],
    ['^a.b$', 'a\rb', true],
    ['^a.b$', 'a\nb', false],
    ['(?s)^a.b$', 'a\nb', true],
    ['^abc$', 'abc\n', false],
    ['(?m)^b$', 'a\nb\nc', true],
    ['^.$', '😀', true],
    ['^[[:alpha:]]+\\z', 'abc', true],
    ['^\\pL+$', 'héllo', true],
    ['^\\pL+$', 'h3llo', false],
    ['^\\PL+$', '123', true],
    ['^\\p{Greek}+$', 'αβγ', true],
    ['^\\p{^Greek}+$', 'abc', true],
    ['^[[:^alpha:]]+$', '12-3', true],
    ['^[[:^alpha:]]+$', '12a3', false],
    ['^[[:word:]]+$', 'a_1', true],
    ['(?i:AbC)d', 'abcd', true],
    ['(?i:AbC)d', 'abcD', false],
    ['(?i)^k$', '\u212a', true],
    ['(?i)^σ$', 'ς', true],
    ['(?U)^a+$', 'aa', true],
    ['^\\x{41}$', 'A', true],
    ['^\\101$', 'A', true],
    ['^(?P<x>a+)$', 'aaa', true],
    ['^(?<x>a+)$', 'aaa', true],
    ['^(?P<n>a)(?P<n>b)$', 'ab', true],
    ['^(?P<n>a)|(?<n>b)$', 'b', true],
    ['^(?P<n>w)[(?P<n>]x(?P<n>y)$', 'wPxy', true],
    ['^\\Q.*\\E$', '.*', true],
    ['^\\Q.*\\E$', 'ab', false],
    ['^a{2,3}$', 'aaa', true],
    ['^a{,3}$', 'a{,3}', true],
    ['^[a\\-z]$', '-', true],
    ['^\\.$', '.', true],
    ['^x{1}y\\}$', 'xy}', true],
  ])('%s on %j: %s', (p, s, want) => expect(matches(p, s)).toBe(want));

  it('runs a hostile pattern in linear time (no backtracking)', () => {
    const hostile = 'a'.repeat(50_000);
    expect(matches('^(a+)+$', `${hostile}b`)).toBe(false);
    expect(matches('^(a+)+$', hostile)).toBe(true);
    expect(matches('(x+x+)+y', 'x'.repeat(50_000))).toBe(false);
    expect(matches('^(\\w+\\s?)*$', `${'word '.repeat(10_000)}!`)).toBe(false);
  });

  it('compiles a pattern once and keeps its result', () => {
    expect(compilePattern('^[a-z]+$')).toBe(compilePattern('^[a-z]+$'));
    expect(compilePattern('a**')).toBe(compilePattern('a**'));
  });

  it.each([
    ['+', 'missing argument to repetition operator: `+`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a{2}{3}', 'invalid nested repetition operator: `{2}{3}`'],
    ['(abc', 'missing closing ): `(abc`'],
    ['abc)', 'unexpected ): `abc)`'],
    ['[a', 'missing closing ]: `[a`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['[[:foo:]]', 'invalid character class range: `[:foo:]`'],
    ['a{2,1}', 'invalid repeat count: `{2,1}`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['(a{1000}){2}', 'invalid repeat count: `{2}`'],
    ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(?#c)', 'invalid or unsupported Perl syntax: `(?#`'],
    ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
    ['(?P<a-b>x)', 'invalid named capture: `(?P<a-b>`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['\\Z', 'invalid escape sequence: `\\Z`'],
    ['a\\C', 'invalid escape sequence: `\\C`'],
    ['\\', 'trailing backslash at end of expression: ``'],
    ['\\pX', 'invalid character class range: `\\pX`'],
    ['x\\p{Cn}', 'invalid character class range: `\\p{Cn}`'],
    ['[\\P{^LC}]', 'invalid character class range: `\\P{^LC}`'],
    ['\\p{Ascii}', 'invalid character class range: `\\p{Ascii}`'],
    ['\\p{White_Space}', 'invalid character class range: `\\p{White_Space}`'],
    ['\\p{Greek}\\p{Garay}', 'invalid character class range: `\\p{Garay}`'],
    ['(?P<n>a)(?P<n>b)(', 'missing closing ): `(?P<n>a)(?P<n>b)(`'],
    ['(?P<n>a)(?P<n>b)a**', 'invalid nested repetition operator: `**`'],
  ])('refuses %s as Go does', (p, err) => expect(compilePattern(p).error).toBe(`error parsing regexp: ${err}`));

  it('gives the whole pattern for an expression nested too deeply, as Go does', () => {
    const deep = `${'('.repeat(1001)}a${')'.repeat(1001)}`;
    expect(compilePattern(deep).error).toBe(`error parsing regexp: expression nests too deeply: \`${deep}\``);
  });

  it('does not read \\p inside \\Q...\\E as a class', () => {
    expect(matches('^\\Q\\p{Cn}\\E$', '\\p{Cn}')).toBe(true);
  });
});

describe('goRegexpError', () => {
  it('is undefined for what Go accepts and Go error text otherwise', () => {
    expect(goRegexpError('^(?i:[a-z]+)\\pN*$')).toBeUndefined();
    expect(goRegexpError('(?P<n>a)(?P<n>b)')).toBeUndefined();
    expect(goRegexpError('(a')).toBe('error parsing regexp: missing closing ): `(a`');
  });
});
