import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { yamlDuplicateKeys, yamlUnmarshalErrors } from './yaml-duplicate-keys.js';

describe('yamlDuplicateKeys (go-yaml v2 strict decoding)', () => {
  it('reports a repeated key at the line of its value, as upstream field_validation.go expects', () => {
    const body = `
apiVersion: g/v1
kind: Noxu
metadata:
  name: mytest
  finalizers:
  - test-finalizer
spec:
  unknown: uk1
  foo: foo1
  foo: foo2
  cronSpec: "* * * * */5"`;
    expect(yamlDuplicateKeys(body)).toEqual(['line 11: key "foo" already set in map']);
  });

  it('reports repeats inside a value before the repeat of its key', () => {
    expect(yamlDuplicateKeys('a: 1\na:\n  b: 1\n  b: 2\n')).toEqual([
      'line 4: key "b" already set in map',
      'line 3: key "a" already set in map',
    ]);
  });

  it('compares decoded keys: a number and a string differ, JSON flow mappings count', () => {
    expect(yamlDuplicateKeys('{"a":1,\n"a":2, 1: x, "1": y, 1: z}')).toEqual([
      'line 2: key "a" already set in map',
      'line 2: key 1 already set in map',
    ]);
    expect(yamlDuplicateKeys('- {a: 1}\n- {a: 2}\n')).toEqual([]);
  });

  it('quotes keys as Go does and formats the error text', () => {
    expect(yamlDuplicateKeys('"a\\"b": 1\n"a\\"b": 2\n')).toEqual(['line 2: key "a\\"b" already set in map']);
    expect(yamlUnmarshalErrors(['line 2: x', 'line 3: y'])).toBe('yaml: unmarshal errors:\n  line 2: x\n  line 3: y');
  });

  it('the lenient reading keeps the last value', () => {
    expect(parse('foo: 1\nfoo: 2\n', { uniqueKeys: false })).toEqual({ foo: 2 });
  });
});
