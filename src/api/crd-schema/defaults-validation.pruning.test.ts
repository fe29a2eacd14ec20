// schemaHasUnprunedDefaults (upstream apiextensions-apiserver 1.33
// pkg/apis/apiextensions/validation/validation.go, via defaulting/prune.go PruneDefaults and
// surroundingobject.go): whether an update may keep unpruned defaults. Upstream tests it only
// through CRD updates; these cases follow PruneDefaults' rules one by one.
import { describe, expect, it } from 'vitest';
import { schemaHasUnprunedDefaults, validateSchemaDefaults } from './defaults-validation.js';
import * as F from './defaults-validation.fixture.js';

const AT = 'spec.validation.openAPIV3Schema';

describe('schemaHasUnprunedDefaults (upstream PruneDefaults on the structural schema)', () => {
  const v115 = F.v115MetadataDefaults[0];
  it.each([
    { name: 'no defaults', schema: F.obj({ a: F.str() }), want: false },
    {
      name: 'pruned object default',
      schema: F.obj({ a: F.obj({ foo: F.str() }, { default: { foo: 'abc' } }) }),
      want: false,
    },
    {
      name: 'unknown field in a default',
      schema: F.obj({ a: F.obj({ foo: F.str() }, { default: { foo: 'abc', bar: 42 } }) }),
      want: true,
    },
    {
      name: 'unknown field kept by x-kubernetes-preserve-unknown-fields',
      schema: F.obj({ a: F.obj(undefined, { 'x-kubernetes-preserve-unknown-fields': true, default: { bar: 42 } }) }),
      want: false,
    },
    {
      name: 'defaults under additionalProperties are pruned too',
      schema: F.obj({
        m: F.obj(undefined, { additionalProperties: F.obj({ foo: F.str() }, { default: { foo: 'a', bar: 1 } }) }),
      }),
      want: true,
    },
    {
      name: 'list item default',
      schema: F.obj({ l: { type: 'array', items: F.obj({ a: F.str() }, { default: { a: 'x', b: 1 } }) } }),
      want: true,
    },
    // validateSchemaDefaults accepts this schema (v1.15 era versions[0]): ObjectMeta coercion drops the field
    { name: 'unknown field in embedded metadata default', schema: v115, want: true },
    {
      name: 'empty field in embedded metadata default',
      schema: F.obj({ e: F.embedded({ metadata: F.obj(undefined, { default: { name: 'foo', labels: {} } }) }) }),
      want: true,
    },
    {
      name: 'whole embedded object default with unknown metadata field',
      schema: F.obj({
        e: F.embedded(
          { something: F.str() },
          { default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', x: 1 } } },
        ),
      }),
      want: true,
    },
    {
      name: 'clean embedded object default',
      schema: F.obj({
        e: F.embedded(
          { something: F.str() },
          { default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo' } } },
        ),
      }),
      want: false,
    },
    {
      name: 'top-level metadata field default',
      schema: F.obj({ metadata: F.obj({ name: F.str({ default: 'foo' }) }) }),
      want: false,
    },
    { name: 'root object default with unknown field', schema: F.obj({}, { default: { foo: 1 } }), want: true },
    { name: 'root default not an object (upstream error: false)', schema: F.str({ default: 'x' }), want: false },
    {
      name: 'schema toStructural refuses (upstream error: false)',
      schema: F.obj({ a: F.obj({}, { default: { b: 1 } }) }, { 'x-kubernetes-preserve-unknown-fields': false }),
      want: false,
    },
  ])('$name', ({ schema, want }) => {
    const input = structuredClone(schema);
    expect(schemaHasUnprunedDefaults(input)).toBe(want);
    expect(input).toEqual(schema);
  });

  it('agrees with requirePruned validation on plain schemas', () => {
    expect(schemaHasUnprunedDefaults(F.invalidDefaults)).toBe(true);
    expect(
      validateSchemaDefaults(F.invalidDefaults, AT, true).some((e) =>
        e.message.endsWith('must not have unknown fields'),
      ),
    ).toBe(true);
  });
});
