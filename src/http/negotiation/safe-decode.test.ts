import { describe, expect, it } from 'vitest';
import { parseJsonText, parseYamlText } from './safe-decode.js';

const code = (f: () => unknown) => {
  try {
    f();
    return 0;
  } catch (err) {
    return (err as { code?: number }).code;
  }
};

describe('bounded decoding of JSON and YAML', () => {
  it('refuses nesting beyond 100 levels before parsing, with 400', () => {
    expect(parseJsonText('['.repeat(100) + ']'.repeat(100), 'the body')).toBeDefined();
    expect(() => parseJsonText('['.repeat(101) + ']'.repeat(101), 'the body')).toThrow(/exceeded max depth of 100/);
    expect(code(() => parseJsonText('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), 'the body'))).toBe(400);
  });
  it('refuses numbers JSON cannot hold (Go: cannot unmarshal 1e400 into float64)', () => {
    expect(() => parseJsonText('{"a":1e400}', 'the body')).toThrow(/unsupported value: Infinity at \/a/);
    expect(parseJsonText('{"a":-0,"b":1e300}', 'the body')).toEqual({ a: -0, b: 1e300 });
  });
  it('refuses the YAML bodies that crashed or hung the process, with 400', () => {
    for (const text of [
      '['.repeat(1000) + ']'.repeat(1000),
      '- '.repeat(3000) + 'x',
      '? '.repeat(2000) + 'x',
      '{a: '.repeat(2000) + '1' + '}'.repeat(2000),
    ]) {
      expect(code(() => parseYamlText(text, 'the body'))).toBe(400);
    }
  });
  it('refuses YAML alias bombs, values that contain themselves and .inf', () => {
    const bomb =
      'a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n';
    expect(() => parseYamlText(bomb, 'the body')).toThrow(/alias/i);
    expect(() => parseYamlText('a: &a [*a]', 'the body')).toThrow(/max depth/);
    expect(() => parseYamlText('a: .inf', 'the body')).toThrow(/unsupported value/);
  });
  it('reads YAML 1.1 tags as plain strings and keeps documents with a few aliases', () => {
    expect(parseYamlText('a: !!binary aGVsbG8=', 'the body')).toEqual({ a: 'aGVsbG8=' });
    expect(parseYamlText('a: &x {k: v}\nb: *x', 'the body')).toEqual({ a: { k: 'v' }, b: { k: 'v' } });
  });

  it('refuses a repeated YAML key, or keeps its last value when asked to read leniently', () => {
    expect(() => parseYamlText('a: 1\nb:\n  c: 1\n  c: 2\n', 'the body')).toThrow(/Map keys must be unique/);
    expect(parseYamlText('a: 1\nb:\n  c: 1\n  c: 2\n', 'the body', false)).toEqual({ a: 1, b: { c: 2 } });
  });
});
