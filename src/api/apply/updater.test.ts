// Cases from structured-merge-diff merge/multiple_appliers_test.go and key_test.go, run through our
// Updater with one API version (upstream's renaming and multi-version converters have no
// counterpart here).
import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { pathToString } from './path.js';
import { mergeConfiguration, updateManagers, type ManagerSets } from './updater.js';
import { check, K, leaf, list, listOfLists, P, V, y, type Case } from './updater.fixture.js';

describe('Updater (structured-merge-diff merge/*_test.go)', () => {
  it.each<[string, Case]>([
    [
      'remove_one (multiple_appliers_test TestMultipleAppliersSet)',
      {
        meta: list,
        ops: [
          { apply: 'list: [{name: a}, {name: b}]', by: 'one' },
          { apply: 'list: [{name: c}]', by: 'two' },
          { apply: 'list: [{name: a}]', by: 'one' },
        ],
        object: 'list: [{name: a}, {name: c}]',
        managed: {
          one: [P('list', K('a')), P('list', K('a'), 'name')],
          two: [P('list', K('c')), P('list', K('c'), 'name')],
        },
      },
    ],
    [
      'same_value_no_conflict',
      {
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
      },
    ],
    [
      'change_value_yes_conflict',
      {
        meta: list,
        ops: [
          { apply: 'list: [{name: a, value: 0}]', by: 'one' },
          { apply: 'list: [{name: a, value: 1}]', by: 'two', conflicts: [['one', P('list', K('a'), 'value')]] },
        ],
        object: 'list: [{name: a, value: 0}]',
        managed: { one: [P('list', K('a')), P('list', K('a'), 'name'), P('list', K('a'), 'value')] },
      },
    ],
    [
      'remove_one_keep_one',
      {
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
      },
    ],
    [
      'removing_obsolete_applied_structs (key_test)',
      {
        meta: list,
        ops: [
          { apply: 'list: [{name: a, value: 1}]', by: 'default' },
          { apply: 'list: [{name: b, value: 2}]', by: 'default' },
        ],
        object: 'list: [{name: b, value: 2}]',
        managed: { default: [P('list', K('b')), P('list', K('b'), 'name'), P('list', K('b'), 'value')] },
      },
    ],
    [
      'unset_scalar_sole_owner (TestMultipleAppliersFieldUnsetting)',
      {
        meta: leaf,
        ops: [
          { apply: 'struct: {name: a, scalarField: a}', by: 'one' },
          { apply: 'struct: {name: a}', by: 'one' },
        ],
        object: 'struct: {name: a}',
        managed: { one: [P('struct', 'name')] },
      },
    ],
    [
      'unset_scalar_shared_with_applier',
      {
        meta: leaf,
        ops: [
          { apply: 'struct: {name: a, scalarField: a}', by: 'one' },
          { apply: 'struct: {scalarField: a}', by: 'two' },
          { apply: 'struct: {name: a}', by: 'one' },
        ],
        object: 'struct: {name: a, scalarField: a}',
        managed: { one: [P('struct', 'name')], two: [P('struct', 'scalarField')] },
      },
    ],
    [
      'unset_scalar_shared_with_updater',
      {
        meta: leaf,
        ops: [
          { update: 'struct: {name: a, scalarField: a}', by: 'updater' },
          { apply: 'struct: {name: a, scalarField: a}', by: 'applier' },
          { apply: 'struct: {name: a}', by: 'applier' },
        ],
        object: 'struct: {name: a, scalarField: a}',
        managed: {
          updater: [P('struct'), P('struct', 'name'), P('struct', 'scalarField')],
          applier: [P('struct', 'name')],
        },
      },
    ],
    [
      'updater_claims_field',
      {
        meta: leaf,
        ops: [
          { apply: 'struct: {name: a, scalarField: a}', by: 'applier' },
          { update: 'struct: {name: a, scalarField: b}', by: 'updater' },
        ],
        object: 'struct: {name: a, scalarField: b}',
        managed: { updater: [P('struct', 'scalarField')], applier: [P('struct', 'name')] },
      },
    ],
    [
      'unset_complex_sole_owner',
      {
        meta: leaf,
        ops: [
          { apply: 'struct: {name: a, complexField: {name: b}}', by: 'one' },
          { apply: 'struct: {name: a}', by: 'one' },
        ],
        object: 'struct: {name: a}',
        managed: { one: [P('struct', 'name')] },
      },
    ],
    [
      'unset_complex_shared_with_applier',
      {
        meta: leaf,
        ops: [
          { apply: 'struct: {name: a, complexField: {name: b}}', by: 'one' },
          { apply: 'struct: {complexField: {name: b}}', by: 'two' },
          { apply: 'struct: {name: a}', by: 'one' },
        ],
        object: 'struct: {name: a, complexField: {name: b}}',
        managed: { one: [P('struct', 'name')], two: [P('struct', 'complexField', 'name')] },
      },
    ],
    [
      'remove_one_keep_one_with_dangling_subitem (TestMultipleAppliersNestedType)',
      {
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
      },
    ],
    [
      'remove_one_with_dangling_subitem_keep_one',
      {
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
      },
    ],
    [
      'remove_one_keep_one_with_sub_item',
      {
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
      },
    ],
  ])('%s', (_name, c) => check(c));

  it('applying the same configuration again changes nothing', () => {
    const live = y('list: [{name: a, value: 1}]');
    const managers: ManagerSets = new Map([
      [
        'one',
        {
          set: FieldSet.of(P('list', K('a')), P('list', K('a'), 'name'), P('list', K('a'), 'value')),
          apiVersion: 'v1',
          applied: true,
        },
      ],
    ]);
    const res = mergeConfiguration(live, y('list: [{name: a, value: 1}]'), 'v1', managers, 'one', false, list);
    expect(res).toMatchObject({ changed: false, object: live });
  });

  it('ignored (reset) fields are neither gained nor lost', () => {
    const ignored = FieldSet.of(P('status'));
    const managers = updateManagers(
      y('{spec: {a: 1}}'),
      y('{spec: {a: 2}, status: {s: 1}}'),
      'v1',
      new Map(),
      'u',
      leaf,
      ignored,
    );
    expect([...managers.get('u')!.set.paths()].map(pathToString)).toEqual(['.spec.a']);
  });
});
