// Cases from structured-merge-diff merge/leaf_test.go, set_test.go, nested_test.go and the atomic
// map "force" case of multiple_appliers_test.go, through our Updater with one API version.
import { describe, it } from 'vitest';
import { atomicMapMeta, check, leaf, nested, P, set, V, type Case } from './updater.fixture.js';

describe('Updater: leaves, sets, nested structs and atomic maps (structured-merge-diff merge/*_test.go)', () => {
  it.each<[string, Case]>([
    [
      'apply_update_apply_with_conflict then force (leaf_test)',
      {
        meta: leaf,
        ops: [
          { apply: 'numeric: 1\nstring: string', by: 'default' },
          { update: 'numeric: 1\nstring: controller string\nbool: true', by: 'controller' },
          { apply: 'numeric: 2\nstring: user string', by: 'default', conflicts: [['controller', P('string')]] },
          { apply: 'numeric: 2\nstring: user string', by: 'default', force: true },
        ],
        object: 'numeric: 2\nstring: user string\nbool: true',
        managed: { default: [P('numeric'), P('string')], controller: [P('bool')] },
      },
    ],
    [
      'apply_twice_remove',
      {
        meta: leaf,
        ops: [
          { apply: 'numeric: 1\nstring: string\nbool: false', by: 'default' },
          { apply: 'string: new string', by: 'default' },
        ],
        object: 'string: new string',
        managed: { default: [P('string')] },
      },
    ],
    [
      'update_apply_omits',
      {
        meta: leaf,
        ops: [
          { apply: 'numeric: 2', by: 'default' },
          { update: 'numeric: 1', by: 'controller' },
          { apply: '', by: 'default' },
        ],
        object: 'numeric: 1',
        managed: { controller: [P('numeric')] },
      },
    ],
    [
      'update_remove_empty_set',
      {
        meta: leaf,
        ops: [
          { apply: 'string: string', by: 'default' },
          { update: 'string: new string', by: 'controller' },
        ],
        object: 'string: new string',
        managed: { controller: [P('string')] },
      },
    ],
    [
      'apply_remove_empty_set',
      {
        meta: leaf,
        ops: [
          { apply: 'string: string', by: 'default' },
          { apply: '', by: 'default' },
        ],
        object: '',
        managed: {},
      },
    ],
    [
      'apply_twice_reorder (set_test)',
      {
        meta: set,
        ops: [
          { apply: 'list: [a, b, c, d]', by: 'default' },
          { apply: 'list: [a, d, c, b]', by: 'default' },
        ],
        object: 'list: [a, d, c, b]',
        managed: { default: ['a', 'b', 'c', 'd'].map((v) => P('list', V(v))) },
      },
    ],
    [
      'apply_update_apply_reorder',
      {
        meta: set,
        ops: [
          { apply: 'list: [a, b, c, d]', by: 'default' },
          { update: 'list: [a, d, c, b]', by: 'controller' },
          { apply: 'list: [a, b, c, d]', by: 'default' },
        ],
        object: 'list: [a, b, c, d]',
        managed: { default: ['a', 'b', 'c', 'd'].map((v) => P('list', V(v))) },
      },
    ],
    [
      'apply_twice_remove (set)',
      {
        meta: set,
        ops: [
          { apply: 'list: [a, b, c, d]', by: 'default' },
          { apply: 'list: [a, c, e]', by: 'default' },
        ],
        object: 'list: [a, c, e]',
        managed: { default: ['a', 'c', 'e'].map((v) => P('list', V(v))) },
      },
    ],
    [
      'struct_apply_remove_all (nested_test)',
      {
        meta: nested,
        ops: [
          { apply: 'struct: {name: a, value: 1}', by: 'default' },
          { apply: '', by: 'default' },
        ],
        object: '',
        managed: {},
      },
    ],
    [
      'struct_apply_remove_dangling',
      {
        meta: nested,
        ops: [
          { apply: 'struct: {name: a}', by: 'default' },
          { apply: 'struct:', by: 'default' },
        ],
        object: 'struct:',
        managed: { default: [P('struct')] },
      },
    ],
    [
      'struct_apply_update_remove_all',
      {
        meta: nested,
        ops: [
          { apply: 'struct: {name: a}', by: 'default' },
          { update: 'struct: {name: a, value: 1}', by: 'controller' },
          { apply: '', by: 'default' },
        ],
        object: 'struct: {value: 1}',
        managed: { controller: [P('struct', 'value')] },
      },
    ],
    [
      'struct_apply_update_dict_dangling',
      {
        meta: nested,
        ops: [
          { apply: 'struct: {name: a}', by: 'default' },
          { update: 'struct: {name: a, value: 1}', by: 'controller' },
          { apply: 'struct: {}', by: 'default' },
        ],
        object: 'struct: {value: 1}',
        managed: { default: [P('struct')], controller: [P('struct', 'value')] },
      },
    ],
    [
      'struct_apply_update_dict_null',
      {
        meta: nested,
        ops: [
          { apply: 'struct: {name: a}', by: 'default' },
          { update: 'struct: {name: a, value: 1}', by: 'controller' },
          { apply: 'struct:', by: 'default' },
        ],
        object: 'struct: {value: 1}',
        managed: { default: [P('struct')], controller: [P('struct', 'value')] },
      },
    ],
    [
      'struct_apply_update_took_over',
      {
        meta: nested,
        ops: [
          { apply: 'struct: {name: a}', by: 'default' },
          { update: 'struct: {name: b, value: 1}', by: 'controller' },
          { apply: 'struct:', by: 'default' },
        ],
        object: 'struct: {name: b, value: 1}',
        managed: { default: [P('struct')], controller: [P('struct', 'name'), P('struct', 'value')] },
      },
    ],
    [
      'mapOfMapsRecursive_change_middle_key',
      {
        meta: nested,
        ops: [
          { apply: 'mapOfMapsRecursive: {a: {b: {c: null}}}', by: 'default' },
          { apply: 'mapOfMapsRecursive: {a: {d: {c: null}}}', by: 'default' },
        ],
        object: 'mapOfMapsRecursive: {a: {d: {c: null}}}',
        managed: {
          default: [
            P('mapOfMapsRecursive', 'a'),
            P('mapOfMapsRecursive', 'a', 'd'),
            P('mapOfMapsRecursive', 'a', 'd', 'c'),
          ],
        },
      },
    ],
    [
      'force on an atomic map (multiple_appliers_test "force")',
      {
        meta: atomicMapMeta,
        ops: [
          { apply: 'atomicMap: {field1: a}', by: 'one' },
          { apply: 'atomicMap: {field2: b}', by: 'two', conflicts: [['one', P('atomicMap')]] },
          { apply: 'atomicMap: {field2: b}', by: 'two', force: true },
        ],
        object: 'atomicMap: {field2: b}',
        managed: { two: [P('atomicMap')] },
      },
    ],
  ])('%s', (_name, c) => check(c));
});
