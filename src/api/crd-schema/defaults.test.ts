// Cases of upstream's apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm_test.go
// (TestDefault) and prunenulls_test.go (TestPruneNonNullableNullsWithoutDefaults), plus the
// decode order of customresource_handler.go.
import { describe, expect, it } from 'vitest';
import { applyDefaults, pruneNonNullableNulls } from './defaults.js';
import { decodeCustomObject } from './decode.js';
import type { Structural } from './types.js';

const def = (v: unknown, extra: Structural['generic'] = {}): Structural => ({ generic: { default: v, ...extra } });
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

interface Case {
  name: string;
  json: unknown;
  schema?: Structural;
  expected: unknown;
}

const defaultCases: Case[] = [
  { name: 'empty', json: null, expected: null },
  { name: 'scalar', json: 4, schema: def('foo'), expected: 4 },
  { name: 'scalar array', json: [1, 2], schema: { items: def('foo') }, expected: [1, 2] },
  {
    name: 'object array',
    json: [{ a: 1 }, { b: 1 }, { c: 1 }],
    schema: { items: { properties: { a: def('A'), b: def('B'), c: def('C') } } },
    expected: [
      { a: 1, b: 'B', c: 'C' },
      { a: 'A', b: 1, c: 'C' },
      { a: 'A', b: 'B', c: 1 },
    ],
  },
  {
    name: 'object array object',
    json: { array: [{ a: 1 }, { b: 2 }], object: { a: 1 }, additionalProperties: { x: { a: 1 }, y: { b: 2 } } },
    schema: {
      properties: {
        array: { items: { properties: { a: def('A'), b: def('B') } } },
        object: { properties: { a: def('N'), b: def('O') } },
        additionalProperties: {
          generic: {
            additionalProperties: { bool: true, structural: { properties: { a: def('alpha'), b: def('beta') } } },
          },
        },
        foo: def('bar'),
      },
    },
    expected: {
      array: [
        { a: 1, b: 'B' },
        { a: 'A', b: 2 },
      ],
      object: { a: 1, b: 'O' },
      additionalProperties: { x: { a: 1, b: 'beta' }, y: { a: 'alpha', b: 2 } },
      foo: 'bar',
    },
  },
  {
    name: 'empty and null',
    json: [{}, { a: 1 }, { a: 0 }, { a: 0.0 }, { a: '' }, { a: null }, { a: [] }, { a: {} }],
    schema: { items: { properties: { a: def('A') } } },
    expected: [{ a: 'A' }, { a: 1 }, { a: 0 }, { a: 0.0 }, { a: '' }, { a: 'A' }, { a: [] }, { a: {} }],
  },
  {
    name: 'null in nullable list',
    json: [null],
    schema: { generic: { nullable: true }, items: { properties: { a: def('A') } } },
    expected: [null],
  },
  {
    name: 'null in non-nullable list',
    json: [null],
    schema: { generic: { nullable: false }, items: def('A') },
    expected: ['A'],
  },
  {
    name: 'null in nullable object',
    json: { a: null },
    schema: { generic: {}, properties: { a: def('A', { nullable: true }) } },
    expected: { a: null },
  },
  {
    name: 'null in non-nullable object',
    json: { a: null },
    schema: { properties: { a: def('A', { nullable: false }) } },
    expected: { a: 'A' },
  },
  {
    name: 'null in nullable object with additionalProperties',
    json: { a: null },
    schema: { generic: { additionalProperties: { bool: true, structural: def('A', { nullable: true }) } } },
    expected: { a: null },
  },
  {
    name: 'null in non-nullable object with additionalProperties',
    json: { a: null },
    schema: { generic: { additionalProperties: { bool: true, structural: def('A', { nullable: false }) } } },
    expected: { a: 'A' },
  },
  {
    name: 'null unknown field',
    json: { a: null },
    schema: { generic: { additionalProperties: { bool: true } } },
    expected: { a: null },
  },
];

const pruneNullCases: Case[] = [
  { name: 'empty', json: null, expected: null },
  { name: 'scalar', json: 4, schema: def('foo'), expected: 4 },
  { name: 'scalar array', json: [1, null], expected: [1, null] },
  {
    name: 'object array',
    json: [{ a: null }, { b: null }, { c: null }, { d: null }, { e: null }],
    schema: {
      items: {
        properties: {
          a: def('A'),
          b: { generic: { nullable: true } },
          c: def('C', { nullable: true }),
          d: { generic: {} },
        },
      },
    },
    expected: [{ a: null }, { b: null }, { c: null }, {}, { e: null }],
  },
];

describe('applyDefaults (upstream defaulting/algorithm_test.go TestDefault)', () => {
  it.each(defaultCases)('$name', (c) => {
    const input = copy(c.json);
    applyDefaults(input, c.schema);
    expect(input).toEqual(c.expected);
  });

  it('deep-copies defaults, so objects defaulted from one schema do not share them', () => {
    const schema: Structural = { properties: { a: def({ list: [1] }) } };
    const x: Record<string, { list: number[] }> = {};
    const y: Record<string, { list: number[] }> = {};
    applyDefaults(x, schema);
    applyDefaults(y, schema);
    x.a.list.push(2);
    expect(y.a.list).toEqual([1]);
    expect((schema.properties!.a.generic!.default as { list: number[] }).list).toEqual([1]);
  });
});

describe('pruneNonNullableNulls (upstream defaulting/prunenulls_test.go)', () => {
  it.each(pruneNullCases)('$name', (c) => {
    const input = copy(c.json);
    pruneNonNullableNulls(input, c.schema);
    expect(input).toEqual(c.expected);
  });
});

describe('decodeCustomObject: prune, drop nulls, coerce, default (customresource_handler.go)', () => {
  const schema: Structural = {
    generic: { type: 'object' },
    properties: {
      spec: {
        generic: { type: 'object' },
        properties: {
          replicas: def(1, { type: 'integer' }),
          mode: { generic: { type: 'string' } },
          extra: def({ keep: true, drop: 1 }, { type: 'object' }),
        },
      },
    },
  };

  it('reports unknown fields, drops non-nullable nulls, then defaults (defaults are not pruned here)', () => {
    const obj = {
      apiVersion: 'x/v1',
      kind: 'K',
      metadata: { name: 'a' },
      spec: { mode: null, foo: 1, replicas: null },
    };
    const res = decodeCustomObject(obj, schema, { returnUnknownFieldPaths: true });
    expect(res).toEqual({ unknownFieldPaths: ['spec.foo'] });
    // replicas: null has a default, so it survives null pruning and is defaulted; mode is dropped.
    expect(obj.spec).toEqual({ replicas: 1, extra: { keep: true, drop: 1 } });
  });

  it('reports unknown metadata fields of embedded resources and fails on a bad kind', () => {
    const embedded: Structural = {
      properties: {
        spec: {
          properties: {
            template: {
              generic: { type: 'object' },
              extensions: { xEmbeddedResource: true, xPreserveUnknownFields: true },
            },
          },
        },
      },
    };
    const ok = { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1, labels: {} } } } };
    expect(decodeCustomObject(ok, embedded, { returnUnknownFieldPaths: true })).toEqual({
      unknownFieldPaths: ['spec.template.metadata.bogus'],
    });
    expect(ok.spec.template.metadata).toEqual({ name: 'p' });
    const bad = { spec: { template: { apiVersion: 'v1', kind: 7 } } };
    expect(decodeCustomObject(bad, embedded).error).toEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.template.kind',
      message: 'Invalid value: 7: must be a string',
    });
  });
});
