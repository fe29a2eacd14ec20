// Cases of upstream's apiextensions-apiserver pkg/apiserver/validation/validation_test.go
// (TestValidateCustomResource, TestItemsProperty; the three CEL cases belong to the CEL part),
// with the exact `field: message` strings upstream expects, and the brief's 422 examples.
import { describe, expect, it } from 'vitest';
import { validateCustomObject } from './validate.js';
import type { JSONSchemaProps } from './types.js';

interface Case {
  name: string;
  schema: JSONSchemaProps;
  objects?: unknown[];
  failing?: { object: unknown; errs: string[] }[];
}

const root = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});
const typeErr = (type: string, got: string, field = 'field') =>
  `${field}: Invalid value: "${got}": ${field} in body must be of type ${type}: "${got}"`;
const allKinds = { string: 'foo', integer: 42, boolean: true, number: 1.2, array: [], object: {} } as const;
const failingKinds = (type: string, kinds: (keyof typeof allKinds)[]) =>
  kinds.map((k) => ({ object: { field: allKinds[k] }, errs: [typeErr(type, k)] }));
const anyOfErrs = (got: string, allOf = false) => [
  ...(allOf ? ['<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated'] : []),
  '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
  typeErr('integer,string', got),
  typeErr('integer', got),
];

const cases: Case[] = [
  {
    name: '!nullable',
    schema: root({ field: { type: 'object', nullable: false } }),
    objects: [{}, { field: {} }],
    failing: [
      ...failingKinds('object', ['string', 'integer', 'boolean', 'number', 'array']),
      { object: { field: null }, errs: [typeErr('object', 'null')] },
    ],
  },
  {
    name: 'nullable',
    schema: root({ field: { type: 'object', nullable: true } }),
    objects: [{}, { field: {} }, { field: null }],
    failing: failingKinds('object', ['string', 'integer', 'boolean', 'number', 'array']),
  },
  {
    name: 'nullable and no type',
    schema: root({ field: { nullable: true } }),
    objects: [
      {},
      { field: {} },
      { field: null },
      { field: 'foo' },
      { field: 42 },
      { field: true },
      { field: 1.2 },
      { field: [] },
    ],
  },
  {
    name: 'x-kubernetes-int-or-string',
    schema: root({ field: { 'x-kubernetes-int-or-string': true } }),
    objects: [{}, { field: 42 }, { field: 'foo' }],
    failing: [
      { object: { field: null }, errs: [typeErr('integer,string', 'null')] },
      ...failingKinds('integer,string', ['boolean', 'number', 'object', 'array']),
    ],
  },
  {
    name: 'nullable and x-kubernetes-int-or-string',
    schema: root({ field: { nullable: true, 'x-kubernetes-int-or-string': true } }),
    objects: [{}, { field: 42 }, { field: 'foo' }, { field: null }],
    failing: failingKinds('integer,string', ['boolean', 'number', 'object', 'array']),
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provided anyOf',
    schema: root({
      field: { nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    }),
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: (['boolean', 'number', 'object', 'array'] as const).map((k) => ({
      object: { field: allKinds[k] },
      errs: anyOfErrs(k),
    })),
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provider allOf',
    schema: root({
      field: {
        nullable: true,
        'x-kubernetes-int-or-string': true,
        allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
      },
    }),
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: (['boolean', 'number', 'object', 'array'] as const).map((k) => ({
      object: { field: allKinds[k] },
      errs: anyOfErrs(k, true),
    })),
  },
  {
    name: 'invalid regex',
    schema: root({ field: { type: 'string', pattern: '+' } }),
    failing: [
      {
        object: { field: 'foo' },
        errs: [
          'field: Invalid value: "foo": field in body should match \'+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`\'',
        ],
      },
    ],
  },
  {
    name: 'required field',
    schema: root(
      { field: { type: 'object', required: ['nested'], properties: { nested: {} } } },
      { required: ['field'] },
    ),
    failing: [
      { object: { test: 'a' }, errs: ['field: Required value'] },
      { object: { field: {} }, errs: ['field.nested: Required value'] },
    ],
  },
  {
    name: 'enum',
    schema: root({
      field: {
        type: 'object',
        required: ['nestedint', 'nestedstring'],
        properties: {
          nestedint: { type: 'integer', enum: [1, 2] },
          nestedstring: { type: 'string', enum: ['a', 'b'] },
        },
      },
    }),
    failing: [
      { object: { field: {} }, errs: ['field.nestedint: Required value', 'field.nestedstring: Required value'] },
      {
        object: { field: { nestedint: 'x', nestedstring: true } },
        errs: [
          typeErr('integer', 'string', 'field.nestedint'),
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          typeErr('string', 'boolean', 'field.nestedstring'),
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
        ],
      },
    ],
  },
  {
    name: 'maxProperties',
    schema: root({ fieldX: { type: 'object', maxProperties: 2 } }),
    failing: [
      { object: { fieldX: { a: true, b: true, c: true } }, errs: ['fieldX: Too many: 3: must have at most 2 items'] },
    ],
  },
  {
    name: 'maxItems',
    schema: root({ fieldX: { type: 'array', maxItems: 2 } }),
    failing: [{ object: { fieldX: ['a', 'b', 'c'] }, errs: ['fieldX: Too many: 3: must have at most 2 items'] }],
  },
  {
    name: 'maxLength',
    schema: root({ fieldX: { type: 'string', maxLength: 2 } }),
    failing: [{ object: { fieldX: 'abc' }, errs: ['fieldX: Too long: may not be more than 2 bytes'] }],
  },
  // TestItemsProperty: a field named "items" is just a field.
  {
    name: 'items in object',
    schema: { properties: { spec: { properties: { replicas: { type: 'integer' } } } } },
    objects: [{ spec: { replicas: 1, items: ['1', '2'] } }],
  },
  {
    name: 'items in array',
    schema: { properties: { secrets: { type: 'array', items: { type: 'string' } } } },
    objects: [{ secrets: ['1', '2'] }],
  },
];

const render = (errs: { field: string; message: string }[]) =>
  [...new Set(errs.map((e) => `${e.field}: ${e.message}`))].sort();

describe('validateCustomObject (upstream validation_test.go TestValidateCustomResource, TestItemsProperty)', () => {
  it.each(cases)('$name', (c) => {
    for (const obj of c.objects ?? []) expect(render(validateCustomObject(obj, c.schema))).toEqual([]);
    for (const f of c.failing ?? [])
      expect(render(validateCustomObject(f.object, c.schema))).toEqual([...f.errs].sort());
  });
});

describe('validateCustomObject: the 422 causes of the brief', () => {
  const schema = root({
    spec: {
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: 'string' },
        replicas: { type: 'integer', maximum: 10 },
        x: { type: 'integer' },
        e: { type: 'string', enum: ['a', 'b'] },
      },
    },
  });

  it('words each problem as upstream, with its reason', () => {
    const errs = validateCustomObject({ spec: { replicas: 20, x: 'string', e: 'z' } }, schema);
    expect(errs.map((e) => [e.reason, `${e.field}: ${e.message}`]).sort()).toEqual([
      [
        'FieldValueInvalid',
        'spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10',
      ],
      ['FieldValueNotSupported', 'spec.e: Unsupported value: "z": supported values: "a", "b"'],
      ['FieldValueRequired', 'spec.a: Required value'],
      ['FieldValueTypeInvalid', 'spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"'],
    ]);
  });

  it('prefixes paths for a subresource (upstream validates status at field path "status")', () => {
    const status = { type: 'object', properties: { n: { type: 'integer', minimum: 0 } } } as JSONSchemaProps;
    expect(render(validateCustomObject({ n: -1 }, status, { fieldPath: 'status' }))).toEqual([
      'status.n: Invalid value: -1: n in body should be greater than or equal to 0',
    ]);
  });
});

describe('validateCustomObject: list types, embedded resources and the node-validator seam', () => {
  const schema: JSONSchemaProps = root({
    spec: {
      type: 'object',
      properties: {
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        byKey: {
          type: 'object',
          additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != ""' }] },
        },
      },
    },
  });

  it('adds duplicate and embedded-resource errors after the schema errors', () => {
    expect(render(validateCustomObject({ spec: { tags: ['a', 'a'], template: { kind: 'Pod' } } }, schema))).toEqual([
      'spec.tags[1]: Duplicate value: "a"',
      'spec.template.apiVersion: Required value',
    ]);
  });

  it('ratchets list uniqueness on update when the old object already had duplicates', () => {
    const old = { spec: { tags: ['a', 'a'] } };
    expect(validateCustomObject({ spec: { tags: ['a', 'a', 'b'] } }, schema, { oldObj: old })).toEqual([]);
    expect(
      render(validateCustomObject({ spec: { tags: ['b', 'b'] } }, schema, { oldObj: { spec: { tags: [] } } })),
    ).toEqual(['spec.tags[1]: Duplicate value: "b"']);
  });

  it('visits every node with its schema and correlated old value (the CEL hook)', () => {
    const seen: string[] = [];
    const errs = validateCustomObject({ spec: { byKey: { x: '', y: 'ok' } } }, schema, {
      oldObj: { spec: { byKey: { x: 'was' } } },
      nodeValidators: [
        (n) => {
          seen.push(`${n.path}${n.hasOldValue ? `(old=${JSON.stringify(n.oldValue)})` : ''}`);
          const rules = n.schema.extensions?.xValidations ?? [];
          return rules.length && n.value === ''
            ? [
                {
                  reason: 'FieldValueInvalid',
                  field: n.path,
                  message: 'Invalid value: "string": failed rule: self != ""',
                },
              ]
            : [];
        },
      ],
    });
    expect(seen).toEqual([
      '(old={"spec":{"byKey":{"x":"was"}}})',
      'spec(old={"byKey":{"x":"was"}})',
      'spec.byKey(old={"x":"was"})',
      'spec.byKey[x](old="was")',
      'spec.byKey[y]',
    ]);
    expect(render(errs)).toEqual(['spec.byKey[x]: Invalid value: "string": failed rule: self != ""']);
  });
});
