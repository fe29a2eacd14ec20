// Go's printing of values in upstream messages (strconv.Quote, %v of float64, %#v, json.Marshal).
import { describe, expect, it } from 'vitest';
import { goBadValue, goFloat, goJson, goQuote, goSharpV } from './go-format.js';

describe('Go value printing', () => {
  it.each([
    [1.5, '1.5'],
    [1e6, '1e+06'],
    [123456, '123456'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
    [10, '10'],
  ])('%%v of float64 %s is %s', (n, text) => expect(goFloat(n)).toBe(text));

  it('quotes as strconv.Quote', () => {
    expect(goQuote('a"b\\c\n\t\u0001é😀\u00ad')).toBe('"a\\"b\\\\c\\n\\t\\x01é😀\\u00ad"');
  });

  it('prints bad values as the 1.33 field.Error body does', () => {
    expect(goBadValue(null)).toBe('"null"');
    expect(goBadValue(20)).toBe('20');
    expect(goBadValue(2.5)).toBe('2.5');
    expect(goBadValue(true)).toBe('true');
    expect(goBadValue({ b: [1, 'x', null], a: 1.5 })).toBe(
      'map[string]interface {}{"a":1.5, "b":[]interface {}{1, "x", interface {}(nil)}}',
    );
    expect(goSharpV([])).toBe('[]interface {}{}');
  });

  it('marshals as Go json.Marshal (sorted keys, HTML escaped)', () => {
    expect(goJson({ b: '<x>', a: [1, 2.5, true, null] })).toBe('{"a":[1,2.5,true,null],"b":"\\u003cx\\u003e"}');
  });
});
