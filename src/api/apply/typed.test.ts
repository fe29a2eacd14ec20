import { describe, expect, it } from 'vitest';
import type { PatchMeta } from '../core/patch-meta.js';
import { kindPatch, podSpecPatch } from '../core/patch-meta.js';
import { compareObjects } from './compare.js';
import { FieldSet } from './field-set.js';
import { formatProblems, typedProblems } from './list-items.js';
import { mergeValues } from './merge.js';
import { keyElement, makePath, pathToString, valueElement } from './path.js';
import { dropNulls, ensureNamedFieldsAreMembers, removeItems } from './remove.js';
import { toFieldSet } from './to-field-set.js';
import type { Json } from './value.js';

// Schemas of structured-merge-diff's typed tests, written as our type information.
const grabBag: PatchMeta = {
  fields: {
    setStr: { merge: {} },
    setBool: { merge: {} },
    setNumeric: { merge: {} },
    color: { mapType: 'atomic' },
    arbitraryWavelengthColor: { mapType: 'atomic' },
  },
};
const assoc: PatchMeta = {
  fields: { list: { merge: { key: 'key' }, listMapKeys: ['key', 'id'], items: { fields: { value: { items: {} } } } } },
};
const pod = kindPatch({ spec: podSpecPatch });

const P = makePath;
const K = keyElement;
const V = valueElement;
const j = (s: string) => JSON.parse(s) as Json;
const show = (s: FieldSet) => [...s.paths()].map(pathToString).sort();
const same = (a: FieldSet, ...paths: ReturnType<typeof P>[]) => expect(show(a)).toEqual(show(FieldSet.of(...paths)));

describe('toFieldSet (typed/toset_test.go)', () => {
  it.each<[string, PatchMeta, string, ReturnType<typeof P>[]]>([
    ['scalar', grabBag, '{"numeric":1}', [P('numeric')]],
    ['float', grabBag, '{"numeric":3.14159}', [P('numeric')]],
    ['set', grabBag, '{"setStr":["a","b","c"]}', [P('setStr', V('a')), P('setStr', V('b')), P('setStr', V('c'))]],
    [
      'set with duplicates',
      grabBag,
      '{"setStr":["a","b","c","a","b","c","c"]}',
      [P('setStr', V('a')), P('setStr', V('b')), P('setStr', V('c'))],
    ],
    ['booleans', grabBag, '{"setBool":[true,false,true]}', [P('setBool', V(true)), P('setBool', V(false))]],
    ['empty atomic map', grabBag, '{"color":{}}', [P('color')]],
    ['null atomic map', grabBag, '{"color":null}', [P('color')]],
    ['atomic map', grabBag, '{"color":{"R":255,"G":0,"B":0}}', [P('color')]],
    ['empty atomic list', grabBag, '{"args":[]}', [P('args')]],
    ['null atomic list', grabBag, '{"args":null}', [P('args')]],
    ['atomic list', grabBag, '{"args":[{"key":"a","value":"b"}]}', [P('args')]],
    ['empty granular list', assoc, '{"list":[]}', []],
    [
      'map list with map values',
      assoc,
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      [
        P('list', K({ key: 'a', id: 1 })),
        P('list', K({ key: 'a', id: 1 }), 'key'),
        P('list', K({ key: 'a', id: 1 }), 'id'),
        P('list', K({ key: 'a', id: 1 }), 'value', 'a'),
      ],
    ],
    [
      'duplicated items are members only',
      assoc,
      '{"list":[{"key":"a","id":1,"nv":2},{"key":"a","id":2,"nv":3},{"key":"a","id":2,"bv":true}]}',
      [
        P('list', K({ key: 'a', id: 1 })),
        P('list', K({ key: 'a', id: 1 }), 'key'),
        P('list', K({ key: 'a', id: 1 }), 'id'),
        P('list', K({ key: 'a', id: 1 }), 'nv'),
        P('list', K({ key: 'a', id: 2 })),
      ],
    ],
    ['null and empty struct fields are members', {}, '{"a":null,"b":{},"c":{"d":1}}', [P('a'), P('b'), P('c', 'd')]],
  ])('%s', (_n, meta, obj, want) => {
    same(toFieldSet(j(obj), meta), ...want);
  });

  it("a pod's containers, ports (keyed with the default protocol), env, labels and finalizers", () => {
    const obj = j(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"web"},"finalizers":["a/b"]},
      "spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}],"env":[{"name":"E","value":"1"}],"args":["x"]}],"nodeSelector":{"k":"v"}}}`);
    const c = K({ name: 'c' });
    const port = K({ containerPort: 80, protocol: 'TCP' });
    same(
      toFieldSet(obj, pod),
      P('apiVersion'),
      P('kind'),
      P('metadata', 'name'),
      P('metadata', 'labels', 'app'),
      P('metadata', 'finalizers', V('a/b')),
      P('spec', 'containers', c),
      P('spec', 'containers', c, 'name'),
      P('spec', 'containers', c, 'image'),
      P('spec', 'containers', c, 'args'),
      P('spec', 'containers', c, 'ports', port),
      P('spec', 'containers', c, 'ports', port, 'containerPort'),
      P('spec', 'containers', c, 'env', K({ name: 'E' })),
      P('spec', 'containers', c, 'env', K({ name: 'E' }), 'name'),
      P('spec', 'containers', c, 'env', K({ name: 'E' }), 'value'),
      P('spec', 'nodeSelector'),
    );
  });
});

describe('mergeValues (typed/merge_test.go)', () => {
  it.each([
    ['{}', '{"inner":{}}', '{"inner":{}}'],
    ['{}', '{"inner":null}', '{"inner":null}'],
    ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
    ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
    ['{"numeric":1}', '{"numeric":3.14159}', '{"numeric":3.14159}'],
    ['{"string":"aoeu"}', '{"bool":true}', '{"string":"aoeu","bool":true}'],
    ['{"setStr":["a","b","c"]}', '{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":["a","b","c"]}', '{"setStr":[]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":[]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":["a","b"]}', '{"setStr":["b","a"]}', '{"setStr":["b","a"]}'],
    ['{"setStr":["a","b","c"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
    ['{"setStr":["a","b","c","g","f"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","g","d","e","f"]}'],
    ['{"setStr":["c","d","e","f"]}', '{"setStr":["a","c","e"]}', '{"setStr":["a","c","d","e","f"]}'],
    [
      '{"setStr":["a","b","c","x","y","z"]}',
      '{"setStr":["d","e","f","x","y","z"]}',
      '{"setStr":["a","b","c","d","e","f","x","y","z"]}',
    ],
    ['{"setStr":["c","a","g","f"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
    ['{"setStr":["a","b","c","d"]}', '{"setStr":["d","e","f","a"]}', '{"setStr":["b","c","d","e","f","a"]}'],
    [
      '{"setStr":["c","d","e","f","g","h","i","j"]}',
      '{"setStr":["2","h","3","e","4","k","l"]}',
      '{"setStr":["c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
    ],
    [
      '{"setStr":["a","b","c","d","e","f","g","h","i","j"]}',
      '{"setStr":["1","b","2","h","3","e","4","k","l"]}',
      '{"setStr":["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
    ],
    ['{"setStr":["a","b","b"]}', '{"setStr":["c"]}', '{"setStr":["a","b","b","c"]}'],
    ['{"setStr":["a","b","b"]}', '{"setStr":["b"]}', '{"setStr":["a","b"]}'],
    [
      '{"setStr":["a","b","c","d","e","c"]}',
      '{"setStr":["1","b","2","e","d"]}',
      '{"setStr":["a","1","b","c","2","e","c","d"]}',
    ],
    [
      '{"setStr":["a","b","c","d","e","c"]}',
      '{"setStr":["1","b","2","c","e","d"]}',
      '{"setStr":["a","1","b","2","c","e","d"]}',
    ],
    ['{"setStr":["a","a","b","b"]}', '{"setStr":["b","c","d"]}', '{"setStr":["a","a","b","c","d"]}'],
    ['{"setBool":[true,false,true]}', '{"setBool":[true]}', '{"setBool":[true,false]}'],
    ['{"setNumeric":[1,2,3.14159,1,2]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
    ['{"color":{"R":1,"G":2}}', '{"color":{"B":3}}', '{"color":{"B":3}}'],
    ['{"args":["a","b"]}', '{"args":["c"]}', '{"args":["c"]}'],
    // null over a non-empty granular map or list is no value; over atomic or empty ones it wins.
    ['{"x":{"a":1}}', '{"x":null}', '{"x":{"a":1}}'],
    ['{"setStr":["a"]}', '{"setStr":null}', '{"setStr":["a"]}'],
    ['{"color":{"R":1}}', '{"color":null}', '{"color":null}'],
    ['{"args":["a","a"]}', '{"args":null}', '{"args":null}'],
    ['{"x":1}', '{"x":null}', '{"x":null}'],
  ])('grab bag: %s + %s', (lhs, rhs, want) => {
    expect(mergeValues(j(lhs), j(rhs), grabBag)).toEqual(j(want));
  });

  it.each([
    [
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]}',
    ],
    [
      '{"list":[{"key":"a","id":1},{"key":"b","id":1}]}',
      '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}',
      '{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]}',
    ],
    [
      '{"list":[{"key":"b","id":2}]}',
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
    ],
    [
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      '{"list":[{"key":"c","id":3},{"key":"b","id":2}]}',
      '{"list":[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]}',
    ],
    [
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      '{"list":[{"key":"c","id":3},{"key":"a","id":1}]}',
      '{"list":[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]}',
    ],
    [
      '{"list":[{"key":"a","id":1,"value":{"x":"1"}}]}',
      '{"list":[{"key":"a","id":1,"value":{"y":"2"}}]}',
      '{"list":[{"key":"a","id":1,"value":{"x":"1","y":"2"}}]}',
    ],
  ])('associative list: %s + %s', (lhs, rhs, want) => {
    expect(mergeValues(j(lhs), j(rhs), assoc)).toEqual(j(want));
  });

  it('merges a container port by containerPort and the default protocol', () => {
    const live = j(
      '{"spec":{"containers":[{"name":"c","image":"a","ports":[{"containerPort":80,"protocol":"TCP","name":"http"}]}]}}',
    );
    const config = j('{"spec":{"containers":[{"name":"c","image":"b","ports":[{"containerPort":80}]}]}}');
    expect(mergeValues(live, config, pod)).toEqual(
      j(
        '{"spec":{"containers":[{"name":"c","image":"b","ports":[{"containerPort":80,"protocol":"TCP","name":"http"}]}]}}',
      ),
    );
  });
});

describe('compareObjects (typed/symdiff_test.go)', () => {
  it.each<[string, string, ReturnType<typeof P>[], ReturnType<typeof P>[], ReturnType<typeof P>[]]>([
    ['{"numeric":1}', '{"numeric":3.14159}', [], [P('numeric')], []],
    ['{"string":"aoeu"}', '{"bool":true}', [P('string')], [], [P('bool')]],
    ['{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}', [], [], [P('setStr', V('c'))]],
    ['{"setStr":["a"]}', '{"setStr":["a","b","b"]}', [], [], [P('setStr', V('b'))]],
    ['{"setStr":["a","b"]}', '{"setStr":["a","b","b"]}', [P('setStr', V('b'))], [], [P('setStr', V('b'))]],
    [
      '{"setStr":["a","b","c"]}',
      '{"setStr":[]}',
      [P('setStr', V('a')), P('setStr', V('b')), P('setStr', V('c'))],
      [],
      [],
    ],
    ['{"setBool":[true,true]}', '{"setBool":[false]}', [P('setBool', V(true))], [], [P('setBool', V(false))]],
    ['{"color":{"R":1}}', '{"color":{"R":2}}', [], [P('color')], []],
    ['{}', '{"color":{"R":2}}', [], [], [P('color')]],
    ['{"x":{"y":1}}', '{}', [P('x'), P('x', 'y')], [], []],
    ['{"x":null}', '{"x":{"y":1}}', [], [], [P('x', 'y')]],
    ['{"x":1}', '{"x":{"y":1}}', [], [P('x')], [P('x', 'y')]],
  ])('%s -> %s', (lhs, rhs, removed, modified, added) => {
    const c = compareObjects(j(lhs), j(rhs), grabBag);
    same(c.removed, ...removed);
    same(c.modified, ...modified);
    same(c.added, ...added);
  });

  it('a new list item is added with each of its fields; a new map with its keys', () => {
    const c = compareObjects(j('{"list":[]}'), j('{"list":[{"key":"a","id":1,"value":{"x":"1"}}]}'), assoc);
    const k = K({ key: 'a', id: 1 });
    same(
      c.added,
      P('list', k),
      P('list', k, 'key'),
      P('list', k, 'id'),
      P('list', k, 'value'),
      P('list', k, 'value', 'x'),
    );
  });
});

describe('removeItems and ensureNamedFieldsAreMembers (typed/remove_test.go, fieldpath/set_test.go)', () => {
  it.each<[string, PatchMeta, ReturnType<typeof P>[], string]>([
    ['{"setBool":[false]}', grabBag, [P('setBool', V(false))], '{"setBool":null}'],
    ['{"setBool":[false]}', grabBag, [P('setBool', V(true))], '{"setBool":[false]}'],
    ['{"setBool":[true,false]}', grabBag, [P('setBool', V(true))], '{"setBool":[false]}'],
    ['{"setNumeric":[1,2,3,4.5]}', grabBag, [P('setNumeric', V(1)), P('setNumeric', V(4.5))], '{"setNumeric":[2,3]}'],
    [
      '{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}',
      assoc,
      [P('list', K({ key: 'a', id: 1 }))],
      '{"list":[{"key":"a","id":2},{"key":"b","id":1}]}',
    ],
    [
      '{"list":[{"key":"a","id":1,"value":{"x":"1","y":"2"}}]}',
      assoc,
      [P('list', K({ key: 'a', id: 1 }), 'value', 'x')],
      '{"list":[{"key":"a","id":1,"value":{"y":"2"}}]}',
    ],
    ['{"color":{"R":1},"x":1}', grabBag, [P('color', 'R')], '{"color":null,"x":1}'],
  ])('%s without %j', (obj, meta, paths, want) => {
    expect(removeItems(j(obj), FieldSet.of(...paths), meta)).toEqual(j(want));
  });

  it('removing every field leaves null, and dropNulls drops null fields', () => {
    expect(removeItems(j('{"key":"foo"}'), FieldSet.of(P('key')), {})).toBeNull();
    expect(dropNulls(j('{"a":null,"b":{"c":null,"d":[1]}}'))).toEqual({ b: { d: [1] } });
  });

  it('makes named fields with children members, not map keys nor anything below set members', () => {
    const meta: PatchMeta = { fields: { labels: { items: {} }, list: { merge: { key: 'name' } } } };
    const set = FieldSet.of(
      P('spec', 'a', 'b'),
      P('labels', 'x', 'y'),
      P('list', K({ name: 'n' }), 'f', 'g'),
      P('s', V('v'), 'w', 'z'),
    );
    same(
      ensureNamedFieldsAreMembers(set, meta),
      P('spec'),
      P('spec', 'a'),
      P('spec', 'a', 'b'),
      P('labels'),
      P('labels', 'x', 'y'),
      P('list'),
      P('list', K({ name: 'n' }), 'f'),
      P('list', K({ name: 'n' }), 'f', 'g'),
      P('s'),
      P('s', V('v'), 'w', 'z'),
    );
  });
});

describe('typedProblems (typed/validate.go, helpers.go)', () => {
  it.each<[string, boolean, string[]]>([
    [
      '{"spec":{"containers":[{"name":"a"},{"name":"a"}]}}',
      false,
      ['.spec.containers: duplicate entries for key [name="a"]'],
    ],
    ['{"spec":{"containers":[{"name":"a"},{"name":"a"}]}}', true, []],
    [
      '{"spec":{"containers":[{"image":"x"}]}}',
      true,
      [
        '.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
      ],
    ],
    [
      '{"metadata":{"finalizers":[{"a":1}]}}',
      true,
      [".metadata.finalizers: element 0: associative list without keys has an element that's a map type"],
    ],
    [
      '{"spec":{"containers":["x"]}}',
      true,
      ['.spec.containers: element 0: associative list with keys may not have non-map elements'],
    ],
    [
      '{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":80,"protocol":"TCP"}]}]}}',
      false,
      ['.spec.containers[name="c"].ports: duplicate entries for key [containerPort=80,protocol="TCP"]'],
    ],
    ['{"spec":{"tolerations":[{"a":1},{"a":1}]}}', false, []],
    [
      '{"spec":{"containers":[{"image":"x"},{"name":"a"},{"name":"a"}]}}',
      false,
      [
        '.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
      ],
    ],
    [
      '{"spec":{"containers":[{"name":"a"},{"name":"a","ports":[{"containerPort":1},{"containerPort":1}]}]}}',
      false,
      [
        '.spec.containers: duplicate entries for key [name="a"]',
        '.spec.containers[name="a"].ports: duplicate entries for key [containerPort=1,protocol="TCP"]',
      ],
    ],
  ])('%s (duplicates allowed: %s)', (obj, dup, want) => {
    expect(typedProblems(j(obj), pod, dup)).toEqual(want);
  });

  it('formats several problems as upstream ValidationErrors', () => {
    expect(formatProblems(['a: x', 'b: y'])).toBe('errors:\n  a: x\n  b: y');
    expect(formatProblems(['a: x'])).toBe('a: x');
  });
});
