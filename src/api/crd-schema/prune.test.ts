// Cases of upstream's apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm_test.go
// (TestPrune), with their expected objects and pruned paths.
import { describe, expect, it } from 'vitest';
import { prune } from './prune.js';
import type { Structural } from './types.js';

const obj = (t: string): Structural => ({ generic: { type: t } });
const preserving = (extra: Structural = {}): Structural => ({
  ...extra,
  generic: { type: 'object', ...extra.generic },
  extensions: { xPreserveUnknownFields: true },
});
const embedded = (props: Record<string, Structural>, preserve = false): Structural => ({
  generic: { type: 'object' },
  extensions: { xEmbeddedResource: true, ...(preserve ? { xPreserveUnknownFields: true } : {}) },
  properties: props,
});

const EMBEDDED_IN = {
  apiVersion: 'foo/v1',
  kind: 'Foo',
  metadata: { name: 'instance', unspecified: 'bar' },
  unspecified: 'bar',
  pruned: {
    apiVersion: 'foo/v1',
    kind: 'Foo',
    unspecified: 'bar',
    metadata: { name: 'instance', unspecified: 'bar' },
    spec: { unspecified: 'bar' },
  },
  preserving: {
    apiVersion: 'foo/v1',
    kind: 'Foo',
    unspecified: 'bar',
    metadata: { name: 'instance', unspecified: 'bar' },
    spec: { unspecified: 'bar' },
  },
  nested: {
    apiVersion: 'foo/v1',
    kind: 'Foo',
    unspecified: 'bar',
    metadata: { name: 'instance', unspecified: 'bar' },
    spec: {
      unspecified: 'bar',
      embedded: {
        apiVersion: 'foo/v1',
        kind: 'Foo',
        unspecified: 'bar',
        metadata: { name: 'instance', unspecified: 'bar' },
        spec: { unspecified: 'bar' },
      },
    },
  },
};
const EMBEDDED_SCHEMA: Structural = {
  generic: { type: 'object' },
  properties: {
    pruned: embedded({ spec: obj('object') }),
    preserving: embedded({}, true),
    nested: embedded({
      spec: { generic: { type: 'object' }, properties: { embedded: embedded({ spec: obj('object') }) } },
    }),
  },
};
const EMBEDDED_OUT = {
  pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance', unspecified: 'bar' }, spec: {} },
  preserving: EMBEDDED_IN.preserving,
  nested: {
    apiVersion: 'foo/v1',
    kind: 'Foo',
    metadata: { name: 'instance', unspecified: 'bar' },
    spec: {
      embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance', unspecified: 'bar' }, spec: {} },
    },
  },
};
const EMBEDDED_PRUNED = [
  'nested.spec.embedded.spec.unspecified',
  'nested.spec.embedded.unspecified',
  'nested.spec.unspecified',
  'nested.unspecified',
  'pruned.spec.unspecified',
  'pruned.unspecified',
  'unspecified',
];

interface Case {
  name: string;
  json: unknown;
  schema?: Structural;
  isResourceRoot?: boolean;
  expected: unknown;
  pruned?: string[];
}

const cases: Case[] = [
  { name: 'empty', json: null, expected: null },
  { name: 'scalar', json: 4, schema: {}, expected: 4 },
  { name: 'scalar array', json: [1, 2], schema: { items: {} }, expected: [1, 2] },
  {
    name: 'object array',
    json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
    schema: { items: { properties: { a: {}, c: {} } } },
    expected: [{ a: 1 }, {}, { a: 1, c: 3 }],
    pruned: ['[1].b', '[2].b'],
  },
  {
    name: 'object array with nil schema',
    json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
    expected: [{}, {}, {}],
    pruned: ['[0].a', '[1].b', '[2].a', '[2].b', '[2].c'],
  },
  {
    name: 'object array object',
    json: { array: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], unspecified: { a: 1 }, specified: { a: 1, b: 2, c: 3 } },
    schema: {
      properties: { array: { items: { properties: { a: {}, c: {} } } }, specified: { properties: { a: {}, c: {} } } },
    },
    expected: { array: [{ a: 1 }, {}, { a: 1, c: 3 }], specified: { a: 1, c: 3 } },
    pruned: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
  },
  {
    name: 'nested x-kubernetes-preserve-unknown-fields',
    json: {
      unspecified: 'bar',
      alpha: 'abc',
      beta: 42.0,
      unspecifiedObject: { unspecified: 'bar' },
      pruning: {
        unspecified: 'bar',
        unspecifiedObject: { unspecified: 'bar' },
        pruning: { unspecified: 'bar' },
        apiVersion: 'unknown',
        preserving: { unspecified: 'bar' },
      },
      preserving: {
        unspecified: 'bar',
        unspecifiedObject: { unspecified: 'bar' },
        pruning: { unspecified: 'bar' },
        preserving: { unspecified: 'bar' },
      },
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
        foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' },
      },
      preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' } },
    },
    schema: preserving({
      properties: {
        alpha: obj('string'),
        beta: obj('number'),
        pruning: { generic: { type: 'object' }, properties: { preserving: preserving(), pruning: obj('object') } },
        preserving: preserving({ properties: { preserving: preserving(), pruning: obj('object') } }),
        preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
          extensions: { xPreserveUnknownFields: true },
          generic: {
            type: 'object',
            additionalProperties: {
              bool: true,
              structural: { generic: { type: 'object' }, properties: { specified: obj('object') } },
            },
          },
        },
        preservingAdditionalPropertiesKeyPruneValues: {
          generic: {
            type: 'object',
            additionalProperties: {
              bool: true,
              structural: { generic: { type: 'object' }, properties: { specified: obj('object') } },
            },
          },
        },
      },
    }),
    expected: {
      unspecified: 'bar',
      alpha: 'abc',
      beta: 42.0,
      unspecifiedObject: { unspecified: 'bar' },
      pruning: { pruning: {}, preserving: { unspecified: 'bar' } },
      preserving: {
        unspecified: 'bar',
        unspecifiedObject: { unspecified: 'bar' },
        pruning: {},
        preserving: { unspecified: 'bar' },
      },
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { foo: { specified: {} } },
      preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: {} } },
    },
    pruned: [
      'preserving.pruning.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified',
      'pruning.apiVersion',
      'pruning.pruning.unspecified',
      'pruning.unspecified',
      'pruning.unspecifiedObject',
    ],
  },
  {
    name: 'additionalProperties with schema',
    json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1 } } },
    schema: {
      properties: { a: {}, c: { generic: { additionalProperties: { bool: true, structural: obj('integer') } } } },
    },
    expected: { a: 1, c: { a: 1, b: 2, c: {} } },
    pruned: ['b', 'c.c.a'],
  },
  {
    name: 'additionalProperties with bool',
    json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1, apiVersion: 'unknown' } } },
    schema: { properties: { a: {}, c: { generic: { additionalProperties: { bool: false } } } } },
    expected: { a: 1, c: { a: 1, b: 2, c: {} } },
    pruned: ['b', 'c.c.a', 'c.c.apiVersion'],
  },
  {
    name: 'x-kubernetes-embedded-resource',
    json: EMBEDDED_IN,
    schema: EMBEDDED_SCHEMA,
    expected: EMBEDDED_OUT,
    pruned: EMBEDDED_PRUNED,
  },
  {
    name: 'x-kubernetes-embedded-resource, with root=true',
    json: EMBEDDED_IN,
    schema: EMBEDDED_SCHEMA,
    isResourceRoot: true,
    expected: {
      apiVersion: 'foo/v1',
      kind: 'Foo',
      metadata: { name: 'instance', unspecified: 'bar' },
      ...EMBEDDED_OUT,
    },
    pruned: EMBEDDED_PRUNED,
  },
];

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('prune (upstream pruning/algorithm_test.go TestPrune)', () => {
  it.each(cases)('$name', (c) => {
    const input = copy(c.json);
    const pruned = prune(input, c.schema, { isResourceRoot: c.isResourceRoot, returnPruned: true });
    expect(input).toEqual(c.expected);
    expect(pruned).toEqual(c.pruned ?? []);
    // Pruning again changes nothing, and without returnPruned nothing is reported.
    expect(prune(input, c.schema, { isResourceRoot: c.isResourceRoot })).toEqual([]);
    expect(input).toEqual(c.expected);
  });

  it('keeps the root apiVersion, kind and metadata only at a resource root', () => {
    const root = { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x' }, spec: { x: 1 } };
    const schema: Structural = { properties: { spec: { properties: {} } } };
    expect(prune(copy(root), schema, { isResourceRoot: true, returnPruned: true })).toEqual(['spec.x']);
    const notRoot = copy(root);
    // Not a root: the meta fields go, but upstream does not report them at the top level.
    expect(prune(notRoot, schema, { returnPruned: true })).toEqual(['spec.x']);
    expect(notRoot).toEqual({ spec: {} });
  });
});
