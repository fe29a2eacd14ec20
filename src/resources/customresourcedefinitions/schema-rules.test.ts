/**
 * Cases of upstream's TestValidateCustomResourceDefinitionValidation, TestValidateFieldPath and
 * Test_validateDeprecationWarning (validation_test.go, 1.33; no CEL), and the v1 path of a
 * definition as clients see it: conversion to the internal form, defaults, the strategy.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../api/field-validation.js';
import { customResourceDefinitions } from './customresourcedefinitions.resource.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import { validFieldPath } from './field-path.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { toStructural } from './structural.js';
import { deprecationWarningProblems, validateSchemaOf, type VersionRuleOptions } from './version-validation.js';
import { forbidden, invalid, required, unmatched, unsupported, type Expected } from './validation.fixture.js';

const OPTS: VersionRuleOptions = {
  allowDefaults: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireValidPropertyType: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};
const at = 'spec.validation.openAPIV3Schema';
const list = (extra: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { a: extra } });
const mapItems = (props: Record<string, JSONSchemaProps>, required?: string[]): JSONSchemaProps => ({
  type: 'object',
  properties: props,
  required,
});

const schemaCases: [string, JSONSchemaProps, boolean, Expected[]][] = [
  ['root type without status', { type: 'string' }, false, [invalid(`${at}.type`, 'must be object at the root')]],
  [
    'root type having invalid value, with status (structural schemas required)',
    { type: 'string' },
    true,
    [invalid(`${at}.type`, 'only "object" is allowed'), invalid(`${at}.type`, 'must be object at the root')],
  ],
  [
    'non-allowed root field with status',
    { anyOf: [{ description: 'First schema' }, { description: 'Second schema' }] },
    true,
    [
      invalid(at, 'fields are allowed at the root'),
      forbidden(`${at}.anyOf[0].description`),
      forbidden(`${at}.anyOf[1].description`),
      required(`${at}.type`),
    ],
  ],
  [
    'null type',
    { type: 'object', properties: { null: { type: 'null' } } },
    false,
    [forbidden(`${at}.properties[null].type`), unsupported(`${at}.properties[null].type`)],
  ],
  ['nullable at the root', { type: 'object', nullable: true }, false, [forbidden(`${at}.nullable`)]],
  [
    'must be structural, but is not',
    { type: 'object', properties: { a: { properties: { b: {} } } } },
    false,
    [required(`${at}.properties[a].type`), required(`${at}.properties[a].properties[b].type`)],
  ],
  [
    'invalid type with list type extension set',
    list({ type: 'object', 'x-kubernetes-list-type': 'set' }),
    false,
    [invalid(`${at}.properties[a].type`, 'must be array if x-kubernetes-list-type is specified')],
  ],
  [
    'invalid list type extension',
    list({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'no-such-list' }),
    false,
    [unsupported(`${at}.properties[a].x-kubernetes-list-type`)],
  ],
  [
    'unset list type extension with list map keys extension non-empty',
    list({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['key'] }),
    false,
    [required(`${at}.properties[a].x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty')],
  ],
  [
    'empty list map keys extension with list type extension map',
    list({ type: 'array', 'x-kubernetes-list-type': 'map', items: mapItems({}) }),
    false,
    [required(`${at}.properties[a].x-kubernetes-list-map-keys`)],
  ],
  [
    'non object item with list type extension map',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['k'],
      items: { type: 'string' },
    }),
    false,
    [invalid(`${at}.properties[a].items.type`)],
  ],
  [
    'items with key missing from properties with list type extension map',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['nokey'],
      items: mapItems({ key: { type: 'string' } }),
    }),
    false,
    [invalid(`${at}.properties[a].x-kubernetes-list-map-keys`, 'entries must all be names of item properties')],
  ],
  [
    'items with non scalar key property type with list type extension map',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key'],
      items: mapItems({ key: { type: 'object' } }, ['key']),
    }),
    false,
    [invalid(`${at}.properties[a].items.properties[key].type`, 'must be a scalar type')],
  ],
  [
    'duplicate map keys with list type extension map',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key', 'key'],
      items: mapItems({ key: { type: 'string' } }, ['key']),
    }),
    false,
    [invalid(`${at}.properties[a].x-kubernetes-list-map-keys`, 'must not contain duplicate entries')],
  ],
  [
    'allowed schema with list type extension map',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['k'],
      items: mapItems({ k: { type: 'string' } }, ['k']),
    }),
    false,
    [],
  ],
  [
    'invalid list-type set with non-atomic map items',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'object', 'x-kubernetes-map-type': 'granular' },
    }),
    false,
    [
      invalid(
        `${at}.properties[a].items.x-kubernetes-map-type`,
        'must be atomic as item of a list with x-kubernetes-list-type=set',
      ),
    ],
  ],
  [
    'allowed list-type set with atomic map items',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
    }),
    false,
    [],
  ],
  [
    'unset type with map type extension (granular)',
    list({ 'x-kubernetes-map-type': 'granular' }),
    false,
    [
      required(`${at}.properties[a].type`, 'must be object if x-kubernetes-map-type is specified'),
      required(`${at}.properties[a].type`, 'must not be empty'),
    ],
  ],
  [
    'invalid map type',
    list({ type: 'object', 'x-kubernetes-map-type': 'bad-map-type' }),
    false,
    [unsupported(`${at}.properties[a].x-kubernetes-map-type`)],
  ],
  [
    'invalid map with non-required key and no default',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key'],
      items: mapItems({ key: { type: 'string' } }),
    }),
    false,
    [required(`${at}.properties[a].items.properties[key].default`, 'must have a default or be a required property')],
  ],
  [
    'allowed map with non-required key and default',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key'],
      items: mapItems({ key: { type: 'string', default: 'x' } }),
    }),
    false,
    [],
  ],
  [
    'invalid map with nullable key',
    list({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key'],
      items: mapItems({ key: { type: 'string', nullable: true } }, ['key']),
    }),
    false,
    [forbidden(`${at}.properties[a].items.properties[key].nullable`)],
  ],
  [
    'invalid set with nullable items',
    list({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } }),
    false,
    [forbidden(`${at}.properties[a].items.nullable`)],
  ],
  [
    'uniqueItems is forbidden',
    list({ type: 'array', items: { type: 'string' }, uniqueItems: true }),
    false,
    [forbidden(`${at}.properties[a].uniqueItems`, 'runtime complexity becomes quadratic')],
  ],
  ['$ref is forbidden', list({ $ref: '#/definitions/x' }), false, [forbidden(`${at}.properties[a].$ref`)]],
  [
    'int-or-string anyOf pattern is structural',
    list({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }),
    false,
    [],
  ],
  [
    'other anyOf types are not',
    list({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'boolean' }] }),
    false,
    [forbidden(`${at}.properties[a].anyOf[0].type`), forbidden(`${at}.properties[a].anyOf[1].type`)],
  ],
  [
    'junctor naming an unknown field',
    { type: 'object', anyOf: [{ properties: { x: {} } }] },
    false,
    [required(`${at}.properties[x]`, `because it is defined in ${at}.anyOf[0].properties[x]`)],
  ],
  [
    'invalid x-kubernetes-validations with empty rule',
    list({ type: 'string', 'x-kubernetes-validations': [{ message: 'x' }] }),
    false,
    [required(`${at}.properties[a].x-kubernetes-validations[0].rule`, 'rule is not specified')],
  ],
  [
    'multiline rule without message',
    list({ type: 'string', 'x-kubernetes-validations': [{ rule: 'self ==\n"a"' }] }),
    false,
    [required(`${at}.properties[a].x-kubernetes-validations[0].message`)],
  ],
  [
    'pattern must compile as RE2',
    list({ type: 'string', pattern: '(?=abc)' }),
    false,
    [invalid(`${at}.properties[a].pattern`, 'invalid or unsupported Perl syntax')],
  ],
];

describe('validateCustomResourceDefinitionValidation (upstream cases)', () => {
  it.each(schemaCases)('%s', (_name, schema, status, expected) => {
    const errs = validateSchemaOf({ openAPIV3Schema: schema }, status, OPTS, 'spec.validation');
    expect(unmatched(errs, expected)).toEqual({ missing: [], extra: [] });
  });
});

describe('ValidFieldPath', () => {
  const ss = toStructural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { 'a.b': { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'integer' } } },
      },
    },
  });
  if ('error' in ss) throw new Error(ss.error);
  it.each([
    ['.spec.m.k', 'spec.m[k]'],
    [".spec['a.b']", 'spec.a.b'],
    [".spec.m['k\\'q']", "spec.m[k'q]"],
  ])('%s is %s', (path, printed) => expect(validFieldPath(path, ss.structural).path).toBe(printed));
  it.each([
    ['.spec.x', 'does not refer to a valid field'],
    ['spec', 'expected [ or . but got: spec'],
    ['.spec.', 'unexpected end of JSON path'],
    [".spec['a.b'", 'unexpected end of JSON path'],
    ['.spec[a]', 'expected single quoted string but got a'],
  ])('%s fails: %s', (path, message) => expect(() => validFieldPath(path, ss.structural)).toThrow(message));
  it('refuses [..] for selectable fields', () =>
    expect(() => validFieldPath(".spec['a.b']", ss.structural, false)).toThrow('array notation is not allowed'));
});

describe('validateDeprecationWarning', () => {
  it.each([
    [false, 'x', ['can only be set for deprecated versions']],
    [true, '', ['must not be an empty string']],
    [true, 'x'.repeat(257), ['must be <= 256 characters long']],
    [true, 'é\tx', ['must only contain printable UTF-8 characters; non-printable character found at index 2']],
    [true, 'use v2 instead', []],
  ] as const)('deprecated=%s %j', (deprecated, warning, expected) =>
    expect(deprecationWarningProblems(deprecated, warning)).toEqual(expected),
  );
});

/** A v1 definition as a client sends it. */
function v1(change: (c: CustomResourceDefinition) => void = () => {}): CustomResourceDefinition {
  const crd: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  };
  change(crd);
  return crd;
}

describe('the v1 row', () => {
  const strategy = customResourceDefinitions.strategy;
  const prepared = (crd: CustomResourceDefinition) => {
    strategy.defaults!(crd);
    strategy.prepareForCreate!(crd);
    return crd;
  };

  it('defaults singular, listKind, conversion and stored versions, and validates clean', () => {
    const crd = prepared(v1());
    expect(crd.spec.names).toEqual({ plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
    expect(crd.spec.conversion).toEqual({ strategy: 'None' });
    expect(crd.status).toEqual({ storedVersions: ['v1'] });
    expect(crd.metadata.generation).toBe(1);
    expect(strategy.validate!(crd)).toEqual([]);
  });

  it('reports a one-version schema at spec.validation, as upstream does', () => {
    const crd = prepared(
      v1((c) => (c.spec.versions[0].schema = { openAPIV3Schema: { type: 'object', properties: { spec: {} } } })),
    );
    expect(strategy.validate!(crd)).toEqual([
      {
        reason: 'FieldValueRequired',
        field: 'spec.validation.openAPIV3Schema.properties[spec].type',
        message: 'Required value: must not be empty for specified object fields',
      },
    ]);
  });

  it('reports differing schemas per version', () => {
    const crd = prepared(
      v1((c) => {
        c.spec.versions.push({
          name: 'v2',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: { type: 'object', properties: { a: {} } } },
        });
      }),
    );
    expect(strategy.validate!(crd).map((e) => e.field)).toEqual([
      'spec.versions[1].schema.openAPIV3Schema.properties[a].type',
    ]);
  });

  it('defaults a webhook service port and names the conversion fields as upstream', () => {
    const crd = prepared(
      v1(
        (c) =>
          (c.spec.conversion = {
            strategy: 'Webhook',
            webhook: { clientConfig: { service: { namespace: 'ns', name: '' } }, conversionReviewVersions: ['v1'] },
          }),
      ),
    );
    expect(crd.spec.conversion?.webhook?.clientConfig?.service?.port).toBe(443);
    // Upstream passes the service's name as its namespace argument.
    expect(strategy.validate!(crd)).toEqual([
      {
        reason: 'FieldValueRequired',
        field: 'spec.conversion.webhookClientConfig.service.namespace',
        message: 'Required value: service namespace is required',
      },
    ]);
  });

  it('bumps generation only on spec changes and records a new storage version', () => {
    const old = prepared(v1());
    old.status = { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }] };
    const same = structuredClone(old);
    same.status = {};
    strategy.prepareForUpdate!(same, old);
    expect(same.metadata.generation).toBe(1);
    expect(same.status).toEqual(old.status);
    const changed = structuredClone(old);
    changed.spec.versions = [
      { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', description: 'v2' } } },
    ];
    strategy.prepareForUpdate!(changed, old);
    expect(changed.metadata.generation).toBe(2);
    expect(changed.status?.storedVersions).toEqual(['v1', 'v2']);
    expect(strategy.validateUpdate!(changed, old)).toEqual([]);
  });

  it('reports unknown schema keywords as unknown fields, and wrong types', () => {
    const body = v1((c) => {
      c.spec.versions[0].schema = {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            a: { type: 'string', bogus: 1 } as JSONSchemaProps,
            b: { maxLength: 'x' } as unknown as JSONSchemaProps,
          },
        },
      };
    });
    const check = checkSchema(customResourceDefinitions.schema, body);
    expect(check.unknown).toEqual(['spec.versions[0].schema.openAPIV3Schema.properties.a.bogus']);
    expect(check.errors.map((e) => e.field)).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties.b.maxLength',
    ]);
  });

  it('is served as upstream names it', () => {
    expect(customResourceDefinitions).toMatchObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      namespaced: false,
    });
    expect(customResourceDefinitions.subresources.map((s) => s.name)).toEqual(['status']);
  });
});
