// Cases from structured-merge-diff merge/*_test.go (multiple_appliers, leaf, set, nested, key,
// atomic map force), run through our Updater with one API version (upstream's renaming and
// multi-version converters have no counterpart here).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { PatchMeta } from '../core/patch-meta.js';
import { FieldSet } from './field-set.js';
import { keyElement, makePath, pathToString, valueElement, type Path } from './path.js';
import { applyConfig, updateManagers, type ManagerSets } from './updater.js';
import type { Json } from './value.js';

type Op =
  | { apply: string; by: string; force?: boolean; conflicts?: [string, Path][] }
  | { update: string; by: string };

interface Case {
  meta: PatchMeta;
  ops: Op[];
  object: string;
  managed: Record<string, Path[]>;
}

const P = makePath;
const K = (name: string) => keyElement({ name });
const V = valueElement;
const y = (s: string) => (parse(s) ?? null) as Json;

function run(c: Case): { live: Json; managers: ManagerSets } {
  let live: Json = null;
  let managers: ManagerSets = new Map();
  c.ops.forEach((op, i) => {
    if ('update' in op) {
      const next = y(op.update);
      managers = updateManagers(live, next, 'v1', managers, op.by, c.meta);
      live = next;
      return;
    }
    const res = applyConfig(live, y(op.apply), 'v1', managers, op.by, op.force ?? false, c.meta);
    if ('conflicts' in res) {
      expect(op.conflicts, `op ${i} conflicts`).toBeDefined();
      expect(res.conflicts.map((x) => [x.manager, pathToString(x.path)])).toEqual(op.conflicts!.map(([m, p]) => [m, pathToString(p)]));
      return;
    }
    expect(op.conflicts, `op ${i} should conflict`).toBeUndefined();
    managers = res.managers;
    live = res.object;
  });
  return { live, managers };
}

function check(c: Case) {
  const { live, managers } = run(c);
  expect(live).toEqual(y(c.object));
  const got = Object.fromEntries([...managers].map(([m, vs]) => [m, [...vs.set.paths()].map(pathToString).sort()]));
  const want = Object.fromEntries(Object.entries(c.managed).map(([m, ps]) => [m, [...FieldSet.of(...ps).paths()].map(pathToString).sort()]));
  expect(got).toEqual(want);
}

const list: PatchMeta = { fields: { list: { merge: { key: 'name' } } } };
const set: PatchMeta = { fields: { list: { merge: {} } } };
const listOfLists: PatchMeta = { fields: { listOfLists: { merge: { key: 'name' }, items: { fields: { value: { merge: {} } } } } } };
const leaf: PatchMeta = {};
const atomicMapMeta: PatchMeta = { fields: { atomicMap: { mapType: 'atomic' } } };
const recursive: { items?: PatchMeta } = {};
recursive.items = recursive;
const nested: PatchMeta = { fields: { mapOfMapsRecursive: recursive, struct: {} } };

describe('Updater (structured-merge-diff merge/*_test.go)', () => {
  it.each<[string, Case]>([
    ['remove_one (multiple_appliers_test TestMultipleAppliersSet)', {
      meta: list,
      ops: [
        { apply: 'list: [{name: a}, {name: b}]', by: 'one' },
        { apply: 'list: [{name: c}]', by: 'two' },
        { apply: 'list: [{name: a}]', by: 'one' },
      ],
      object: 'list: [{name: a}, {name: c}]',
      managed: { one: [P('list', K('a')), P('list', K('a'), 'name')], two: [P('list', K('c')), P('list', K('c'), 'name')] },
    }],
    ['same_value_no_conflict', {
      meta: list,
      ops: [
        { apply: 'list: [{name: a, value: 0}]', by: 'one' },
        { apply: 'list: [{name: a, value: 0}]', by: 'two' },
      ],
      object: 'list: [{name: a, value: 0}]',
      managed: {
        one: [P('list', K('a')), P('list', K('a'), 'name'), P('list', K('a'), 'value')],
        two: [P('list', K('a')), P('list', K('a'), 'name'), P('list', K('a'), 'value')],
      },
    }],
    ['change_value_yes_conflict', {
      meta: list,
      ops: [
        { apply: 'list: [{name: a, value: 0}]', by: 'one' },
        { apply: 'list: [{name: a, value: 1}]', by: 'two', conflicts: [['one', P('list', K('a'), 'value')]] },
      ],
      object: 'list: [{name: a, value: 0}]',
      managed: { one: [P('list', K('a')), P('list', K('a'), 'name'), P('list', K('a'), 'value')] },
    }],
    ['remove_one_keep_one', {
      meta: list,
      ops: [
        { apply: 'list: [{name: a}, {name: b}, {name: c}]', by: 'one' },
        { apply: 'list: [{name: c}, {name: d}]', by: 'two' },
        { apply: 'list: [{name: a}]', by: 'one' },
      ],
      object: 'list: [{name: a}, {name: c}, {name: d}]',
      managed: {
        one: [P('list', K('a')), P('list', K('a'), 'name')],
        two: [P('list', K('c')), P('list', K('c'), 'name'), P('list', K('d')), P('list', K('d'), 'name')],
      },
    }],
    ['removing_obsolete_applied_structs (key_test)', {
      meta: list,
      ops: [
        { apply: 'list: [{name: a, value: 1}]', by: 'default' },
        { apply: 'list: [{name: b, value: 2}]', by: 'default' },
      ],
      object: 'list: [{name: b, value: 2}]',
      managed: { default: [P('list', K('b')), P('list', K('b'), 'name'), P('list', K('b'), 'value')] },
    }],
    ['unset_scalar_sole_owner (TestMultipleAppliersFieldUnsetting)', {
      meta: leaf,
      ops: [
        { apply: 'struct: {name: a, scalarField: a}', by: 'one' },
        { apply: 'struct: {name: a}', by: 'one' },
      ],
      object: 'struct: {name: a}',
      managed: { one: [P('struct', 'name')] },
    }],
    ['unset_scalar_shared_with_applier', {
      meta: leaf,
      ops: [
        { apply: 'struct: {name: a, scalarField: a}', by: 'one' },
        { apply: 'struct: {scalarField: a}', by: 'two' },
        { apply: 'struct: {name: a}', by: 'one' },
      ],
      object: 'struct: {name: a, scalarField: a}',
      managed: { one: [P('struct', 'name')], two: [P('struct', 'scalarField')] },
    }],
    ['unset_scalar_shared_with_updater', {
      meta: leaf,
      ops: [
        { update: 'struct: {name: a, scalarField: a}', by: 'updater' },
        { apply: 'struct: {name: a, scalarField: a}', by: 'applier' },
        { apply: 'struct: {name: a}', by: 'applier' },
      ],
      object: 'struct: {name: a, scalarField: a}',
      managed: { updater: [P('struct'), P('struct', 'name'), P('struct', 'scalarField')], applier: [P('struct', 'name')] },
    }],
    ['updater_claims_field', {
      meta: leaf,
      ops: [
        { apply: 'struct: {name: a, scalarField: a}', by: 'applier' },
        { update: 'struct: {name: a, scalarField: b}', by: 'updater' },
      ],
      object: 'struct: {name: a, scalarField: b}',
      managed: { updater: [P('struct', 'scalarField')], applier: [P('struct', 'name')] },
    }],
    ['unset_complex_sole_owner', {
      meta: leaf,
      ops: [
        { apply: 'struct: {name: a, complexField: {name: b}}', by: 'one' },
        { apply: 'struct: {name: a}', by: 'one' },
      ],
      object: 'struct: {name: a}',
      managed: { one: [P('struct', 'name')] },
    }],
    ['unset_complex_shared_with_applier', {
      meta: leaf,
      ops: [
        { apply: 'struct: {name: a, complexField: {name: b}}', by: 'one' },
        { apply: 'struct: {complexField: {name: b}}', by: 'two' },
        { apply: 'struct: {name: a}', by: 'one' },
      ],
      object: 'struct: {name: a, complexField: {name: b}}',
      managed: { one: [P('struct', 'name')], two: [P('struct', 'complexField', 'name')] },
    }],
    ['remove_one_keep_one_with_dangling_subitem (TestMultipleAppliersNestedType)', {
      meta: listOfLists,
      ops: [
        { apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]', by: 'one' },
        { apply: 'listOfLists: [{name: b, value: [d]}]', by: 'two' },
        { update: 'listOfLists: [{name: a}, {name: b, value: [c, d, e]}]', by: 'controller' },
        { apply: 'listOfLists: [{name: a}]', by: 'one' },
      ],
      object: 'listOfLists: [{name: a}, {name: b, value: [d, e]}]',
      managed: {
        one: [P('listOfLists', K('a')), P('listOfLists', K('a'), 'name')],
        two: [P('listOfLists', K('b')), P('listOfLists', K('b'), 'name'), P('listOfLists', K('b'), 'value', V('d'))],
        controller: [P('listOfLists', K('b'), 'value', V('e'))],
      },
    }],
    ['remove_one_with_dangling_subitem_keep_one', {
      meta: listOfLists,
      ops: [
        { apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]', by: 'one' },
        { apply: 'listOfLists: [{name: a, value: [b]}]', by: 'two' },
        { update: 'listOfLists: [{name: a, value: [b]}, {name: b, value: [c, d]}]', by: 'controller' },
        { apply: 'listOfLists: [{name: a}]', by: 'one' },
      ],
      object: 'listOfLists: [{name: a, value: [b]}]',
      managed: {
        one: [P('listOfLists', K('a')), P('listOfLists', K('a'), 'name')],
        two: [P('listOfLists', K('a')), P('listOfLists', K('a'), 'name'), P('listOfLists', K('a'), 'value', V('b'))],
      },
    }],
    ['remove_one_keep_one_with_sub_item', {
      meta: listOfLists,
      ops: [
        { apply: 'listOfLists: [{name: a}, {name: b, value: [c]}]', by: 'one' },
        { apply: 'listOfLists: [{name: b, value: [d]}]', by: 'two' },
        { apply: 'listOfLists: [{name: a}]', by: 'one' },
      ],
      object: 'listOfLists: [{name: a}, {name: b, value: [d]}]',
      managed: {
        one: [P('listOfLists', K('a')), P('listOfLists', K('a'), 'name')],
        two: [P('listOfLists', K('b')), P('listOfLists', K('b'), 'name'), P('listOfLists', K('b'), 'value', V('d'))],
      },
    }],
    ['apply_update_apply_with_conflict then force (leaf_test)', {
      meta: leaf,
      ops: [
        { apply: 'numeric: 1\nstring: string', by: 'default' },
        { update: 'numeric: 1\nstring: controller string\nbool: true', by: 'controller' },
        { apply: 'numeric: 2\nstring: user string', by: 'default', conflicts: [['controller', P('string')]] },
        { apply: 'numeric: 2\nstring: user string', by: 'default', force: true },
      ],
      object: 'numeric: 2\nstring: user string\nbool: true',
      managed: { default: [P('numeric'), P('string')], controller: [P('bool')] },
    }],
    ['apply_twice_remove', {
      meta: leaf,
      ops: [
        { apply: 'numeric: 1\nstring: string\nbool: false', by: 'default' },
        { apply: 'string: new string', by: 'default' },
      ],
      object: 'string: new string',
      managed: { default: [P('string')] },
    }],
    ['update_apply_omits', {
      meta: leaf,
      ops: [
        { apply: 'numeric: 2', by: 'default' },
        { update: 'numeric: 1', by: 'controller' },
        { apply: '', by: 'default' },
      ],
      object: 'numeric: 1',
      managed: { controller: [P('numeric')] },
    }],
    ['update_remove_empty_set', {
      meta: leaf,
      ops: [
        { apply: 'string: string', by: 'default' },
        { update: 'string: new string', by: 'controller' },
      ],
      object: 'string: new string',
      managed: { controller: [P('string')] },
    }],
    ['apply_remove_empty_set', {
      meta: leaf,
      ops: [
        { apply: 'string: string', by: 'default' },
        { apply: '', by: 'default' },
      ],
      object: '',
      managed: {},
    }],
    ['apply_twice_reorder (set_test)', {
      meta: set,
      ops: [
        { apply: 'list: [a, b, c, d]', by: 'default' },
        { apply: 'list: [a, d, c, b]', by: 'default' },
      ],
      object: 'list: [a, d, c, b]',
      managed: { default: ['a', 'b', 'c', 'd'].map((v) => P('list', V(v))) },
    }],
    ['apply_update_apply_reorder', {
      meta: set,
      ops: [
        { apply: 'list: [a, b, c, d]', by: 'default' },
        { update: 'list: [a, d, c, b]', by: 'controller' },
        { apply: 'list: [a, b, c, d]', by: 'default' },
      ],
      object: 'list: [a, b, c, d]',
      managed: { default: ['a', 'b', 'c', 'd'].map((v) => P('list', V(v))) },
    }],
    ['apply_twice_remove (set)', {
      meta: set,
      ops: [
        { apply: 'list: [a, b, c, d]', by: 'default' },
        { apply: 'list: [a, c, e]', by: 'default' },
      ],
      object: 'list: [a, c, e]',
      managed: { default: ['a', 'c', 'e'].map((v) => P('list', V(v))) },
    }],
    ['struct_apply_remove_all (nested_test)', {
      meta: nested,
      ops: [
        { apply: 'struct: {name: a, value: 1}', by: 'default' },
        { apply: '', by: 'default' },
      ],
      object: '',
      managed: {},
    }],
    ['struct_apply_remove_dangling', {
      meta: nested,
      ops: [
        { apply: 'struct: {name: a}', by: 'default' },
        { apply: 'struct:', by: 'default' },
      ],
      object: 'struct:',
      managed: { default: [P('struct')] },
    }],
    ['struct_apply_update_remove_all', {
      meta: nested,
      ops: [
        { apply: 'struct: {name: a}', by: 'default' },
        { update: 'struct: {name: a, value: 1}', by: 'controller' },
        { apply: '', by: 'default' },
      ],
      object: 'struct: {value: 1}',
      managed: { controller: [P('struct', 'value')] },
    }],
    ['struct_apply_update_dict_dangling', {
      meta: nested,
      ops: [
        { apply: 'struct: {name: a}', by: 'default' },
        { update: 'struct: {name: a, value: 1}', by: 'controller' },
        { apply: 'struct: {}', by: 'default' },
      ],
      object: 'struct: {value: 1}',
      managed: { default: [P('struct')], controller: [P('struct', 'value')] },
    }],
    ['struct_apply_update_dict_null', {
      meta: nested,
      ops: [
        { apply: 'struct: {name: a}', by: 'default' },
        { update: 'struct: {name: a, value: 1}', by: 'controller' },
        { apply: 'struct:', by: 'default' },
      ],
      object: 'struct: {value: 1}',
      managed: { default: [P('struct')], controller: [P('struct', 'value')] },
    }],
    ['struct_apply_update_took_over', {
      meta: nested,
      ops: [
        { apply: 'struct: {name: a}', by: 'default' },
        { update: 'struct: {name: b, value: 1}', by: 'controller' },
        { apply: 'struct:', by: 'default' },
      ],
      object: 'struct: {name: b, value: 1}',
      managed: { default: [P('struct')], controller: [P('struct', 'name'), P('struct', 'value')] },
    }],
    ['mapOfMapsRecursive_change_middle_key', {
      meta: nested,
      ops: [
        { apply: 'mapOfMapsRecursive: {a: {b: {c: null}}}', by: 'default' },
        { apply: 'mapOfMapsRecursive: {a: {d: {c: null}}}', by: 'default' },
      ],
      object: 'mapOfMapsRecursive: {a: {d: {c: null}}}',
      managed: { default: [P('mapOfMapsRecursive', 'a'), P('mapOfMapsRecursive', 'a', 'd'), P('mapOfMapsRecursive', 'a', 'd', 'c')] },
    }],
    ['force on an atomic map (multiple_appliers_test "force")', {
      meta: atomicMapMeta,
      ops: [
        { apply: 'atomicMap: {field1: a}', by: 'one' },
        { apply: 'atomicMap: {field2: b}', by: 'two', conflicts: [['one', P('atomicMap')]] },
        { apply: 'atomicMap: {field2: b}', by: 'two', force: true },
      ],
      object: 'atomicMap: {field2: b}',
      managed: { two: [P('atomicMap')] },
    }],
  ])('%s', (_name, c) => check(c));

  it('applying the same configuration again changes nothing', () => {
    const live = y('list: [{name: a, value: 1}]');
    const managers: ManagerSets = new Map([['one', { set: FieldSet.of(P('list', K('a')), P('list', K('a'), 'name'), P('list', K('a'), 'value')), apiVersion: 'v1', applied: true }]]);
    const res = applyConfig(live, y('list: [{name: a, value: 1}]'), 'v1', managers, 'one', false, list);
    expect(res).toMatchObject({ changed: false, object: live });
  });

  it('ignored (reset) fields are neither gained nor lost', () => {
    const ignored = FieldSet.of(P('status'));
    const managers = updateManagers(y('{spec: {a: 1}}'), y('{spec: {a: 2}, status: {s: 1}}'), 'v1', new Map(), 'u', leaf, ignored);
    expect([...managers.get('u')!.set.paths()].map(pathToString)).toEqual(['.spec.a']);
  });
});
