// Cases of upstream's apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go
// (TestValidateListSetsAndMaps): which items are reported, of which type, at which path.
import { describe, expect, it } from 'vitest';
import { validateListSetsAndMaps } from './listtype.js';
import type { Structural } from './types.js';

const t = (type: string, extra: Structural = {}): Structural => ({ ...extra, generic: { type, ...extra.generic } });
const list = (listType: string | undefined, items?: Structural, keys?: string[]): Structural => ({
  generic: { type: 'array' },
  ...(items ? { items } : {}),
  extensions: { ...(listType ? { xListType: listType } : {}), ...(keys ? { xListMapKeys: keys } : {}) },
});
const strMap = (nullable = false): Structural => ({
  generic: {
    type: 'object',
    additionalProperties: { bool: true, structural: { generic: { type: 'string', nullable } } },
  },
});
const withProps = (props: Record<string, Structural>): Structural => ({
  generic: { type: 'object' },
  properties: props,
});

interface Case {
  name: string;
  schema?: Structural;
  obj?: Record<string, unknown>;
  errors?: [string, string][]; // [reason, field]
}

const dup = (f: string): [string, string] => ['FieldValueDuplicate', f];
const inv = (f: string): [string, string] => ['FieldValueInvalid', f];
const nullableStr = t('string', { generic: { nullable: true } });
const keyedObject = (keys: string[]): Structural =>
  withProps(
    Object.fromEntries(
      keys.map((k) => [k, k === 'a' ? t('array', { generic: { nullable: true }, items: t('string') }) : t('string')]),
    ),
  );

const cases: Case[] = [
  { name: 'nil' },
  { name: 'no schema', obj: {} },
  { name: 'no object', schema: {} },
  { name: 'list without schema', obj: { array: ['a', 'b', 'a'] } },
  { name: 'list without items', obj: { array: ['a', 'b', 'a'] }, schema: withProps({ array: t('array') }) },
  { name: 'set list with one item', obj: { array: ['a'] }, schema: withProps({ array: list('set') }) },
  {
    name: 'set list with two equal items',
    obj: { array: ['a', 'a'] },
    schema: withProps({ array: list('set') }),
    errors: [dup('root.array[1]')],
  },
  { name: 'set list with two different items', obj: { array: ['a', 'b'] }, schema: withProps({ array: list('set') }) },
  {
    name: 'set list with multiple duplicated items',
    obj: { array: ['a', 'a', 'b', 'c', 'd', 'c'] },
    schema: withProps({ array: list('set') }),
    errors: [dup('root.array[1]'), dup('root.array[5]')],
  },
  {
    name: 'normal list with items',
    obj: { array: ['a', 'b', 'a'] },
    schema: withProps({ array: list(undefined, t('string')) }),
  },
  {
    name: 'set list with items',
    obj: { array: ['a', 'b', 'a'] },
    schema: withProps({ array: list('set', t('string')) }),
    errors: [dup('root.array[2]')],
  },
  {
    name: 'set list with items under additionalProperties',
    obj: { array: ['a', 'b', 'a'] },
    schema: { generic: { type: 'object', additionalProperties: { bool: true, structural: list('set', t('string')) } } },
    errors: [dup('root[array][2]')],
  },
  {
    name: 'set list with items under items',
    obj: {
      array: [
        ['a', 'b', 'a'],
        ['b', 'b', 'a'],
      ],
    },
    schema: withProps({ array: list(undefined, list('set', t('string'))) }),
    errors: [dup('root.array[0][2]'), dup('root.array[1][1]')],
  },
  {
    name: 'nested set lists',
    obj: { array: ['a', 'b', 'a', ['b', 'b', 'a']] },
    schema: withProps({ array: list('set', list('set')) }),
    errors: [dup('root.array[2]'), dup('root.array[3][1]')],
  },
  {
    name: 'set list with compound map items',
    obj: {
      strings: ['a', 'b', 'a'],
      integers: [1, 2, 1],
      booleans: [false, true, true],
      float64: [1.5, 2.5, 2.5],
      nil: ['a', null, null],
      'empty maps': [{ a: 'b' }, {}, {}],
      'map values': [{ a: 'b' }, { a: 'c' }, { a: 'b' }],
      'nil values': [{ a: null }, { b: 'c', a: null }],
      array: [[], ['a'], ['b'], ['a']],
      'nil array': [[], [null], [null, null], [null], ['a']],
      'multiple duplicates': [{ a: 'b' }, { a: 'c' }, { a: 'b' }, { a: 'c' }, { a: 'c' }],
    },
    schema: withProps({
      strings: list('set', t('string')),
      integers: list('set', t('integer')),
      booleans: list('set', t('boolean')),
      float64: list('set', t('number')),
      nil: list('set', nullableStr),
      'empty maps': list('set', strMap()),
      'map values': list('set', strMap()),
      'nil values': list('set', strMap(true)),
      array: list('set', list(undefined, t('string'))),
      'nil array': list('set', list(undefined, nullableStr)),
      'multiple duplicates': list('set', strMap()),
    }),
    errors: [
      dup('root.strings[2]'),
      dup('root.integers[2]'),
      dup('root.booleans[2]'),
      dup('root.float64[2]'),
      dup('root.nil[2]'),
      dup('root.empty maps[2]'),
      dup('root.map values[2]'),
      dup('root.array[3]'),
      dup('root.nil array[3]'),
      dup('root.multiple duplicates[2]'),
      dup('root.multiple duplicates[3]'),
    ],
  },
  {
    name: 'set list with compound array items',
    obj: { array: [[], ['a'], ['a']] },
    schema: withProps({ array: list('set', t('string')) }),
    errors: [dup('root.array[2]')],
  },
  {
    name: 'map list with compound map items',
    obj: {
      strings: ['a'],
      integers: [1],
      booleans: [false],
      float64: [1.5],
      nil: [null],
      array: [['a']],
      'one key': [{ a: '0', c: '2' }, { a: '1', c: '1' }, { a: '1', c: '2' }, {}],
      'two keys': [{ a: '1', b: '1', c: '1' }, { a: '1', b: '2', c: '2' }, { a: '1', b: '2', c: '3' }, {}],
      'undefined key': [{ a: '1', b: '1', c: '1' }, { a: '1', c: '2' }, { a: '1', c: '3' }, {}],
      'compound key': [
        { a: [], c: '1' },
        { a: null, c: '1' },
        { a: ['a'], c: '1' },
        { a: ['a', 42], c: '2' },
        { a: ['a', 42], c: ['3'] },
      ],
      'nil key': [{ a: [], c: '1' }, { a: null, c: '1' }, { c: '1' }, { a: null }],
      'nil item': [null, { a: '0', c: '1' }, { a: null }, { c: '1' }],
      'nil item multiple keys': [null, { b: '0', c: '1' }, { a: null }, { c: '1' }],
      'multiple duplicates': [
        { a: [], c: '1' },
        { a: null, c: '1' },
        { a: ['a'], c: '1' },
        { a: ['a', 42], c: '2' },
        { a: ['a', 42], c: ['3'] },
        { a: ['a'], c: '1', d: '1' },
        { a: ['a'], c: '1', d: '2' },
      ],
    },
    schema: withProps({
      strings: list('map', t('string'), ['a']),
      integers: list('map', t('integer'), ['a']),
      booleans: list('map', t('boolean'), ['a']),
      float64: list('map', t('number'), ['a']),
      nil: list('map', nullableStr, ['a']),
      array: list('map', list(undefined, t('string')), ['a']),
      'one key': list('map', strMap(), ['a']),
      'two keys': list('map', strMap(), ['a', 'b']),
      'undefined key': list('map', strMap(), ['a', 'b']),
      'compound key': list('map', strMap(true), ['a']),
      'nil key': list('map', keyedObject(['a', 'c']), ['a']),
      'nil item': list('map', keyedObject(['a', 'c']), ['a']),
      'nil item multiple keys': list('map', keyedObject(['a', 'b', 'c']), ['a', 'b']),
      'multiple duplicates': list('map', strMap(true), ['a']),
    }),
    errors: [
      inv('root.strings[0]'),
      inv('root.integers[0]'),
      inv('root.booleans[0]'),
      inv('root.float64[0]'),
      inv('root.array[0]'),
      dup('root.one key[2]'),
      dup('root.two keys[2]'),
      dup('root.undefined key[2]'),
      dup('root.compound key[4]'),
      dup('root.nil key[3]'),
      dup('root.nil item[3]'),
      dup('root.nil item multiple keys[3]'),
      dup('root.multiple duplicates[4]'),
      dup('root.multiple duplicates[5]'),
    ],
  },
];

const sorted = (xs: [string, string][]) => [...xs].sort((a, b) => (a.join() < b.join() ? -1 : 1));

describe('validateListSetsAndMaps (upstream listtype/validation_test.go)', () => {
  it.each(cases)('$name', (c) => {
    const errs = validateListSetsAndMaps('root', c.schema, c.obj);
    expect(sorted(errs.map((e) => [e.reason, e.field]))).toEqual(sorted(c.errors ?? []));
  });

  it('words duplicates as upstream 1.33 prints them', () => {
    const schema = withProps({
      tags: list('set', t('string')),
      ports: list('map', withProps({ port: t('integer'), protocol: t('string') }), ['port', 'protocol']),
      one: list('map', withProps({ name: t('string') }), ['name']),
      objs: list('map', withProps({ name: t('string') }), ['name']),
    });
    const errs = validateListSetsAndMaps('', schema, {
      tags: ['x', 'y', 'x'],
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 80, protocol: 'TCP', extra: 1 },
      ],
      one: [{ name: 'a' }, { name: 'a' }],
      objs: [{ name: 'a' }, 'b'],
    });
    expect(errs.map((e) => `${e.field}: ${e.message}`).sort()).toEqual([
      'objs[1]: Invalid value: "b": must be an object for an array of list-type map',
      'one[1]: Duplicate value: map[string]interface {}{"name":"a"}',
      'ports[1]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}',
      'tags[2]: Duplicate value: "x"',
    ]);
  });
});
