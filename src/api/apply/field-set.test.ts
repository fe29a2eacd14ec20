import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { fieldsV1Text, fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import { indexElement, keyElement, makePath, pathToString, valueElement, type Path, type PathElement } from './path.js';

const P = makePath;
const K = keyElement;
const V = valueElement;
const pathsOf = (s: FieldSet) => [...s.paths()].map(pathToString);

describe('pathToString (fieldpath/path_test.go TestPathString)', () => {
  it.each<[string, Path, string]>([
    ['basic1', P('foo', 1), '.foo[1]'],
    ['basic2', P('foo', 'bar', 1, 'baz'), '.foo.bar[1].baz'],
    ['associative-list-ref', P('foo', K({ a: 'b', c: 1, d: 1.5, e: true })), '.foo[a="b",c=1,d=1.5,e=true]'],
    ['sets', P('foo', V('b'), V(5), V(false), V(3.14159)), '.foo[="b"][=5][=false][=3.14159]'],
    ['simple field', P('spec'), '.spec'],
    [
      'app container image',
      P('spec', 'apps', K({ name: 'app-🚀' }), 'container', 'image'),
      '.spec.apps[name="app-🚀"].container.image',
    ],
    ['field with space', P('spec', 'field with space'), '.spec.field with space'],
    [
      'value with quotes',
      P('spec', 'apps', V('app with "quotes"'), 'container', 'image'),
      '.spec.apps[="app with \\"quotes\\""].container.image',
    ],
    [
      'keys sorted by name',
      P('spec', 'ports', K({ protocol: 'TCP', port: 80 })),
      '.spec.ports[port=80,protocol="TCP"]',
    ],
    ['container image', P('spec', 'containers', K({ name: 'c' }), 'image'), '.spec.containers[name="c"].image'],
    ['label', P('metadata', 'labels', 'app'), '.metadata.labels.app'],
    ['finalizer', P('metadata', 'finalizers', V('a/b')), '.metadata.finalizers[="a/b"]'],
    ['large float', P('x', V(1234567.5)), '.x[=1.2345675e+06]'],
    ['unprintable', P('x', V('a\u0000')), '.x[="a\\x00"]'],
  ])('%s', (_name, path, want) => {
    expect(pathToString(path)).toBe(want);
  });
});

describe('FieldSet operations (fieldpath/set_test.go)', () => {
  it('union (TestSetUnion)', () => {
    const s1 = FieldSet.of(
      P('foo', 0),
      P('foo'),
      P('bar', 'baz'),
      P('qux', K({ name: 'first' })),
      P('parent', 'child', 'grandchild'),
    );
    const s2 = FieldSet.of(
      P('foo', 1),
      P('bar', 'baz'),
      P('bar'),
      P('qux', K({ name: 'second' })),
      P('parent', 'child'),
    );
    const u = FieldSet.of(
      P('foo', 0),
      P('foo', 1),
      P('foo'),
      P('bar', 'baz'),
      P('bar'),
      P('qux', K({ name: 'first' })),
      P('qux', K({ name: 'second' })),
      P('parent', 'child'),
      P('parent', 'child', 'grandchild'),
    );
    expect(s1.union(s2).equals(u)).toBe(true);
    expect(s1.union(s2).size()).toBe(9);
  });

  describe('intersection and difference (TestSetIntersectionDifference)', () => {
    const first = K({ name: 'first' });
    const s1 = FieldSet.of(
      P('a0'),
      P('a1'),
      P('foo', 0),
      P('foo', 1),
      P('b0', first),
      P('b1', first),
      P('bar', 'c0'),
      P('cp', first, 'child'),
    );
    const s2 = FieldSet.of(
      P('a1'),
      P('a2'),
      P('foo', 1),
      P('foo', 2),
      P('b1', first),
      P('b2', first),
      P('bar', 'c2'),
      P('cp', first),
    );
    const i = FieldSet.of(P('a1'), P('foo', 1), P('b1', first));
    it('intersection', () => expect(s1.intersection(s2).equals(i)).toBe(true));
    it('s1 - s2', () => {
      const want = FieldSet.of(P('a0'), P('foo', 0), P('b0', first), P('bar', 'c0'), P('cp', first, 'child'));
      expect(s1.difference(s2).equals(want)).toBe(true);
    });
    it('s2 - s1', () => {
      const want = FieldSet.of(P('a2'), P('foo', 2), P('b2', first), P('bar', 'c2'), P('cp', first));
      expect(s2.difference(s1).equals(want)).toBe(true);
    });
    it('intersection the hard way', () => {
      const not = s2.difference(s1).union(s1.difference(s2));
      expect(s1.union(s2).difference(not).equals(i)).toBe(true);
    });
  });

  it.each<[string, Path[], Path[], Path[], Path[]]>([
    ['removes simple path', [P('a')], [P('a')], [], []],
    ['removes direct path', [P('a', 'b', 'c')], [P('a', 'b', 'c')], [], []],
    [
      'only removes matching child',
      [P('a', 'b', 'c'), P('b', 'b', 'c')],
      [P('a', 'b', 'c')],
      [P('b', 'b', 'c')],
      [P('b', 'b', 'c')],
    ],
    ['does not remove parent of specific path', [P('a')], [P('a', 'aa')], [P('a')], [P('a')]],
    ['RecursiveDifference removes nested path', [P('a', 'b', 'c')], [P('a')], [P('a', 'b', 'c')], []],
    [
      'RecursiveDifference only matching children',
      [P('a', 'aa', 'aab'), P('a', 'ab', 'aba')],
      [P('a', 'aa')],
      [P('a', 'aa', 'aab'), P('a', 'ab', 'aba')],
      [P('a', 'ab', 'aba')],
    ],
  ])('difference: %s (TestSetDifference)', (_n, a, b, diff, rdiff) => {
    expect(
      FieldSet.of(...a)
        .difference(FieldSet.of(...b))
        .equals(FieldSet.of(...diff)),
    ).toBe(true);
    expect(
      FieldSet.of(...a)
        .recursiveDifference(FieldSet.of(...b))
        .equals(FieldSet.of(...rdiff)),
    ).toBe(true);
  });

  it.each<[string, Path[], Path[]]>([
    ['empty set', [], []],
    ['only one leaf', [P('root'), P('root', 'l1'), P('root', 'l1', 'l2')], [P('root', 'l1', 'l2')]],
    [
      'multiple values and nested',
      [
        P('root', K({ name: 'a' })),
        P('root', K({ name: 'a' }), 'name'),
        P('root', K({ name: 'a' }), 'value', 'b'),
        P('root', K({ name: 'a' }), 'value', 'b', 'd'),
      ],
      [P('root', K({ name: 'a' }), 'name'), P('root', K({ name: 'a' }), 'value', 'b', 'd')],
    ],
  ])('leaves: %s (TestSetLeaves)', (_n, input, want) => {
    expect(
      FieldSet.of(...input)
        .leaves()
        .equals(FieldSet.of(...want)),
    ).toBe(true);
  });

  it('has, withPrefix, size, empty and iteration order (TestSetInsertHas, TestSetIterSize)', () => {
    const s = FieldSet.of(P('b'), P('a', 'x'), P('a'), P('c', K({ name: 'n' }), 'image'));
    expect(s.has(P('a'))).toBe(true);
    expect(s.has(P('a', 'x'))).toBe(true);
    expect(s.has(P('c'))).toBe(false);
    expect(s.has([])).toBe(false);
    expect(s.size()).toBe(4);
    expect(FieldSet.EMPTY.empty()).toBe(true);
    expect(pathsOf(s.withPrefix(P('c')[0]))).toEqual(['[name="n"].image']);
    // Upstream iterates a node's members first, then its children.
    expect(pathsOf(s)).toEqual(['.a', '.b', '.a.x', '.c[name="n"].image']);
  });

  it('orders elements as upstream: fields < keys < values < indices, values numbers < strings < booleans', () => {
    const els: PathElement[] = [indexElement(1), V(true), V('aa'), V(2), K({ name: 'x' }), P('z')[0], P('a')[0]];
    const s = FieldSet.of(...els.map((e) => [e]));
    expect(pathsOf(s)).toEqual(['.a', '.z', '[name="x"]', '[=2]', '[="aa"]', '[=true]', '[1]']);
  });
});

describe('FieldsV1 (fieldpath/serialize_test.go)', () => {
  it.each([
    // TestSerializeV1GoldenData
    '{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}',
    '{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}',
    // What kube-apiserver writes for a pod created by kubectl run.
    '{"f:metadata":{"f:labels":{".":{},"f:run":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}}}}',
  ])('golden text round trip %#', (text) => {
    expect(fieldsV1Text(fromFieldsV1(text))).toBe(text);
    expect(JSON.stringify(toFieldsV1(fromFieldsV1(JSON.parse(text))))).toBe(text);
  });

  it('normalizes non-normalized input: order, whitespace inside keys (TestDeserializeForValidNonNormalized)', () => {
    const messy =
      '{"i:2":{}, "f:b":{}, "k:{ \\"protocol\\":\\"udp\\",\\"port\\":443}": {}, "v: 3": {}, "f:a": {"f:x": {}, ".": {}}}';
    expect(fieldsV1Text(fromFieldsV1(messy))).toBe(
      '{"f:a":{".":{},"f:x":{}},"f:b":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:3":{},"i:2":{}}',
    );
  });

  it('decodes members, "." and children; skips unknown element types', () => {
    const s = fromFieldsV1({ 'f:a': {}, 'f:b': { '.': {}, 'f:c': {} }, 'z:unknown': {}, 'f:d': { 'z:x': {} } });
    expect(pathsOf(s)).toEqual(['.a', '.b', '.d', '.b.c']);
    expect(fromFieldsV1({}).empty()).toBe(true);
  });

  it('escapes HTML characters as Go does (inside the element, then again in the key)', () => {
    const s = FieldSet.of(P('data', 'a<b'), P('list', V('x&y')));
    expect(fieldsV1Text(s)).toBe('{"f:data":{"f:a\\u003cb":{}},"f:list":{"v:\\"x\\\\u0026y\\"":{}}}');
    expect(fromFieldsV1(fieldsV1Text(s)).equals(s)).toBe(true);
  });

  it.each([
    ['rootArray', '[]'],
    ['rootNumber', '42'],
    ['empty', ''],
    ['valueIsNumber', '{"f:a":1}'],
    ['valueIsArray', '{"f:a":[]}'],
    ['keyEmptyString', '{"":{}}'],
    ['keyMissingColon', '{"x":{}}'],
    ['keyOnlyColon', '{":":{}}'],
    ['trailingObject', '{"f:a":{}}{}'],
    ['badKeyJson', '{"k:{name}":{}}'],
    ['badIndex', '{"i:x":{}}'],
    ['keyNotObject', '{"k:[1]":{}}'],
    ['truncated', '{"f:a":{'],
  ])('rejects %s (TestSetFromJSONTokenTypeErrors)', (_n, text) => {
    expect(() => fromFieldsV1(text)).toThrow();
  });

  const element: fc.Arbitrary<PathElement> = fc.oneof(
    fc.string({ maxLength: 6 }).map((n) => P(n)[0]),
    fc
      .record({
        name: fc.constantFrom('name', 'port', 'protocol'),
        v: fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 500 })),
      })
      .map(({ name, v }) => K({ [name]: v })),
    fc
      .dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean()), {
        minKeys: 1,
      })
      .map((d) => K(d)),
    fc
      .oneof(
        fc.string({ maxLength: 5 }),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
      )
      .map((v) => V(v)),
    fc.nat(20).map((i) => indexElement(i)),
  );
  it('round trips any set through FieldsV1 object and text (property, as TestSerializeV1)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(element, { minLength: 1, maxLength: 5 }), { maxLength: 30 }), (paths) => {
        const s = FieldSet.of(...paths);
        const text = fieldsV1Text(s);
        expect(fromFieldsV1(text).equals(s)).toBe(true);
        expect(fromFieldsV1(toFieldsV1(s)).equals(s)).toBe(true);
        expect(fieldsV1Text(fromFieldsV1(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(toFieldsV1(s));
      }),
      { numRuns: 300 },
    );
  });
});
