import { describe, expect, it } from 'vitest';
import { matchesFields, parseFieldSelector } from './field-selector.js';
import { matchesLabels, parseLabelSelector } from './label-selector.js';

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'front', n: '7' };
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app notin (web)', false],
    ['missing notin (a)', true],
    ['app', true],
    ['!app', false],
    ['!missing', true],
    ['n>5', true],
    ['n<5', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['example.com/key=v', false],
    ['', true],
  ])('%s matches: %s', (sel, expected) => {
    expect(matchesLabels(parseLabelSelector(sel), labels)).toBe(expected);
  });

  it.each([['app=web,'], ['app in web'], ['app=(x'], ['a b=c'], ['app=' + 'x'.repeat(64)], ['n>five'], ['app ~ x']])(
    'rejects %s',
    (sel) => {
      expect(() => parseLabelSelector(sel)).toThrow();
    },
  );
});

describe('field selectors', () => {
  const fields = { 'metadata.name': 'web', 'status.phase': 'Running', 'spec.nodeName': '' };
  it.each([
    ['metadata.name=web', true],
    ['metadata.name==web', true],
    ['metadata.name!=web', false],
    ['status.phase=Running,metadata.name=web', true],
    ['spec.nodeName=', true],
    ['metadata.name=we\\,b', false],
  ])('%s matches: %s', (sel, expected) => {
    expect(matchesFields(parseFieldSelector(sel), fields)).toBe(expected);
  });

  it('unescapes values and reports upstream errors', () => {
    expect(parseFieldSelector('a=b\\=c')[0].value).toBe('b=c');
    expect(() => parseFieldSelector('nonsense')).toThrow("invalid selector: 'nonsense'; can't understand 'nonsense'");
    expect(() => parseFieldSelector('a=b\\x')).toThrow('invalid field selector: invalid escape sequence: \\x');
  });
});
