// Cases of upstream's apiextensions-apiserver (1.33) pkg/apis/apiextensions/validation/
// validation_test.go whose errors come from ValidateDefaults: the default cases of
// TestValidateCustomResourceDefinition ("defaults with enabled feature gate, structural schema",
// "invalid defaults ...", "v1.15 era tests for metadata defaults", "default inside
// additionalSchema", "top-level metadata default", "embedded metadata defaults"), plus the
// requirePruned=false, list item, null keyword and int-or-string rules. Upstream matches exact
// (error type, path) sets; here the messages are checked too. The node-validator (CEL) step is
// in defaults-validation.cel.test.ts, schemaHasUnprunedDefaults in defaults-validation.pruning.test.ts.
import { describe, expect, it } from 'vitest';
import type { FieldError } from '../validation/field-errors.js';
import { validateSchemaDefaults } from './defaults-validation.js';
import * as F from './defaults-validation.fixture.js';
import type { JSONSchemaProps } from './types.js';

const AT = 'spec.validation.openAPIV3Schema';
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const LABEL =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const POD_UNKNOWN = `"apiVersion":"v1", "kind":"Pod", "metadata":map[string]interface {}{"name":"foo", "unknown":42}, "unknown":42`;
const unmarshal = (field: string, type: string, value = 'number') =>
  `json: cannot unmarshal ${value} into Go struct field ObjectMeta.${field} of type ${type}`;

/** An expected error: `field: message` when the whole text is checked, else [field, reason]. */
type Expected = string | [string, FieldError['reason']];

interface Case {
  name: string;
  schema: JSONSchemaProps;
  at?: string;
  requirePruned?: boolean;
  errors: Expected[];
}

const p = (...names: string[]) => `${AT}${names.map((n) => `.properties[${n}]`).join('')}`;
const metaErr = (field: string, value: string, detail: string) =>
  `${field}.default: Invalid value: ${value}: must result in valid metadata: ${detail}`;

const cases: Case[] = [
  {
    name: 'defaults with enabled feature gate, structural schema',
    schema: F.obj({ a: { type: 'number', default: 42.5 } }),
    errors: [],
  },
  {
    name: 'invalid defaults with enabled feature gate, structural schema',
    schema: F.invalidDefaults,
    errors: [
      `${p('a')}.default: Invalid value: map[string]interface {}{"bar":42, "foo":"abc"}: must not have unknown fields`,
      `${p('c')}.default.foo: Invalid value: "integer": foo in body must be of type string: "integer"`,
      `${p('d')}.default.bad: Invalid value: "a": bad in body should match 'b'`,
      `${p('e', 'nestedProperties')}.default: Invalid value: map[string]interface {}{"bar":42, "foo":"abc"}: must not have unknown fields`,
      `${p('e', 'preserveUnknownFields')}.default: Invalid value: map[string]interface {}{"bar":42, "foo":"abc"}: must not have unknown fields`,
    ],
  },
  {
    name: 'invalid defaults, pruned defaults not required (update of a CRD that has unpruned ones)',
    schema: F.invalidDefaults,
    requirePruned: false,
    errors: [
      `${p('c')}.default.foo: Invalid value: "integer": foo in body must be of type string: "integer"`,
      `${p('d')}.default.bad: Invalid value: "a": bad in body should match 'b'`,
    ],
  },
  ...F.v115MetadataDefaults.map((schema, i): Case => {
    const at = `spec.versions[${i}].schema.openAPIV3Schema`;
    const e = (...names: string[]) => `${at}${names.map((n) => `.properties[${n}]`).join('')}`;
    const errors: Expected[][] = [
      // top-level metadata defaults are refused by the schema rules, not here; unknown fields
      // under embedded metadata are allowed (pruned when stored)
      [],
      [],
      [
        metaErr(
          e('embedded', 'kind'),
          '"%"',
          `kind: Invalid value: "%": may have mixed case, but should otherwise match: ${DNS1035}`,
        ),
        metaErr(
          e('embedded', 'metadata'),
          'map[string]interface {}{"labels":map[string]interface {}{"bar":"x y"}}',
          `metadata.labels: Invalid value: "x y": ${LABEL}`,
        ),
      ],
      [
        // upstream: `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`
        [`${e('embedded', 'metadata', 'labels', 'bar')}.default`, 'FieldValueInvalid'],
        metaErr(
          e('embedded', 'metadata', 'name'),
          '42',
          `metadata: Invalid value: map[string]interface {}{"name":42}: ${unmarshal('name', 'string')}`,
        ),
      ],
    ];
    return { name: `v1.15 era tests for metadata defaults, versions[${i}]`, schema, at, errors: errors[i] };
  }),
  {
    name: 'default inside additionalSchema (forbidden by the schema rules; not followed here)',
    schema: F.obj({
      embedded: F.embedded({
        metadata: F.obj({
          annotations: F.obj(undefined, { additionalProperties: F.str({ default: 'abc' }) }),
        }),
      }),
    }),
    errors: [],
  },
  {
    name: 'top-level metadata default (forbidden by the schema rules; valid metadata here)',
    schema: F.obj({ metadata: F.obj(undefined, { default: { name: 'foo' } }) }),
    errors: [],
  },
  {
    name: 'embedded metadata defaults',
    schema: F.embeddedMetadataDefaults,
    errors: [
      `${p('unknown-field-object-defaults')}.default: Invalid value: map[string]interface {}{${POD_UNKNOWN}}: must not have unknown fields`,
      `${p('unknown-field-spanning-object-defaults')}.default: Invalid value: map[string]interface {}{"embedded":map[string]interface {}{${POD_UNKNOWN}}, "unknown":42}: must not have unknown fields`,
      `${p('x-preserve-unknown-fields-unknown-field-outside')}.default: Invalid value: map[string]interface {}{"embedded":map[string]interface {}{${POD_UNKNOWN}}, "unknown":42}: must not have unknown fields`,

      metaErr(p('wrongly-typed-in-object-defaults', 'kind'), '42', 'kind: Invalid value: 42: must be a string'),
      metaErr(
        p('wrongly-typed-in-object-defaults', 'apiVersion'),
        '42',
        'apiVersion: Invalid value: 42: must be a string',
      ),
      metaErr(
        p('wrongly-typed-in-object-defaults', 'metadata', 'name'),
        '42',
        `metadata: Invalid value: map[string]interface {}{"name":42}: ${unmarshal('name', 'string')}`,
      ),
      metaErr(
        p('wrongly-typed-in-object-defaults', 'metadata', 'annotations'),
        '42',
        `metadata: Invalid value: map[string]interface {}{"annotations":42}: ${unmarshal('annotations', 'map[string]string')}`,
      ),

      `${p('wrongly-typed-object-defaults-metadata')}.default.metadata: Invalid value: 42: json: cannot unmarshal number into Go value of type v1.ObjectMeta`,
      `${p('wrongly-typed-object-defaults-apiVersion')}.default.apiVersion: Invalid value: 42: must be a string`,
      `${p('wrongly-typed-object-defaults-kind')}.default.kind: Invalid value: 42: must be a string`,
      `${p('wrongly-typed-object-defaults-name')}.default.metadata: Invalid value: map[string]interface {}{"name":42}: ${unmarshal('name', 'string')}`,
      // upstream: `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`
      [`${p('wrongly-typed-object-defaults-labels')}.default.metadata`, 'FieldValueInvalid'],
      `${p('wrongly-typed-object-defaults-annotations')}.default.metadata: Invalid value: map[string]interface {}{"annotations":42}: ${unmarshal('annotations', 'map[string]string')}`,

      `${p('wrongly-typed-spanning-object-defaults-metadata')}.default.embedded.metadata: Invalid value: 42: json: cannot unmarshal number into Go value of type v1.ObjectMeta`,
      `${p('wrongly-typed-spanning-object-defaults-apiVersion')}.default.embedded.apiVersion: Invalid value: 42: must be a string`,
      `${p('wrongly-typed-spanning-object-defaults-kind')}.default.embedded.kind: Invalid value: 42: must be a string`,
      `${p('wrongly-typed-spanning-object-defaults-name')}.default.embedded.metadata: Invalid value: map[string]interface {}{"name":42}: ${unmarshal('name', 'string')}`,
      // upstream: `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`
      [`${p('wrongly-typed-spanning-object-defaults-labels')}.default.embedded.metadata`, 'FieldValueInvalid'],
      `${p('wrongly-typed-spanning-object-defaults-annotations')}.default.embedded.metadata: Invalid value: map[string]interface {}{"annotations":42}: ${unmarshal('annotations', 'map[string]string')}`,

      metaErr(
        p('invalid-in-object-defaults', 'metadata', 'name'),
        '"%"',
        `metadata.name: Invalid value: "%": may not contain '%'`,
      ),
      metaErr(
        p('invalid-in-object-defaults', 'metadata', 'labels'),
        'map[string]interface {}{"foo":"x y"}',
        `metadata.labels: Invalid value: "x y": ${LABEL}`,
      ),
      metaErr(
        p('invalid-in-object-defaults', 'kind'),
        '"%"',
        `kind: Invalid value: "%": may have mixed case, but should otherwise match: ${DNS1035}`,
      ),

      `${p('invalid-object-defaults-kind')}.default.kind: Invalid value: "%": may have mixed case, but should otherwise match: ${DNS1035}`,
      `${p('invalid-object-defaults-name')}.default.metadata.name: Invalid value: "%": may not contain '%'`,
      `${p('invalid-object-defaults-labels')}.default.metadata.labels: Invalid value: "x y": ${LABEL}`,
      `${p('invalid-spanning-object-defaults-kind')}.default.embedded.kind: Invalid value: "%": may have mixed case, but should otherwise match: ${DNS1035}`,
      `${p('invalid-spanning-object-defaults-name')}.default.embedded.metadata.name: Invalid value: "%": may not contain '%'`,
      `${p('invalid-spanning-object-defaults-labels')}.default.embedded.metadata.labels: Invalid value: "x y": ${LABEL}`,

      ...[
        [p('in-object-defaults-with-invalid-constraints', 'apiVersion'), '', 'bar/v1', 'foo/v1'],
        [p('in-object-defaults-with-invalid-constraints', 'kind'), '', 'Bar', 'Foo'],
        [p('in-object-defaults-with-invalid-constraints', 'metadata', 'name'), '', 'bar', 'foo'],
        [p('in-object-defaults-with-invalid-constraints', 'metadata', 'labels'), '.foo', 'bar', 'foo'],
        [p('metadata-defaults-with-invalid-constraints-name', 'metadata'), '.name', 'bar', 'foo'],
        [p('metadata-defaults-with-invalid-constraints-labels', 'metadata'), '.labels.foo', 'bar', 'foo'],
        [p('object-defaults-with-invalid-constraints-name'), '.metadata.name', 'bar', 'foo'],
        [p('object-defaults-with-invalid-constraints-labels'), '.metadata.labels.foo', 'bar', 'foo'],
        [p('object-defaults-with-invalid-constraints-apiVersion'), '.apiVersion', 'bar/v1', 'foo/v1'],
        [p('object-defaults-with-invalid-constraints-kind'), '.kind', 'Bar', 'Foo'],
        [p('spanning-defaults-with-invalid-constraints-kind'), '.embedded.kind', 'Bar', 'Foo'],
        [p('spanning-defaults-with-invalid-constraints-labels'), '.embedded.metadata.labels.foo', 'bar', 'foo'],
        [p('spanning-defaults-with-invalid-constraints-apiVersion'), '.embedded.apiVersion', 'bar/v1', 'foo/v1'],
        [p('spanning-defaults-with-invalid-constraints-name'), '.embedded.metadata.name', 'bar', 'foo'],
      ].map(
        ([at, under, got, want]) => `${at}.default${under}: Unsupported value: "${got}": supported values: "${want}"`,
      ),

      // upstream: `Required value: must not be empty` (object-meta.ts omits the detail)
      [`${p('object-defaults-with-missing-typemeta')}.default.apiVersion`, 'FieldValueRequired'],
      [`${p('object-defaults-with-missing-typemeta')}.default.kind`, 'FieldValueRequired'],
      [`${p('spanning-defaults-with-missing-typemeta')}.default.embedded.apiVersion`, 'FieldValueRequired'],
      [`${p('spanning-defaults-with-missing-typemeta')}.default.embedded.kind`, 'FieldValueRequired'],
    ],
  },
  {
    name: 'null keywords are absent (Go decodes them to nil)',
    schema: F.obj({ a: F.str({ maxLength: null, enum: null, default: 'abc' } as unknown as JSONSchemaProps) }),
    errors: [],
  },
  {
    name: 'x-kubernetes-int-or-string is not type-checked in defaults (Structural.ToKubeOpenAPI has no type)',
    schema: F.obj({
      loose: { 'x-kubernetes-int-or-string': true, default: true },
      strict: {
        'x-kubernetes-int-or-string': true,
        anyOf: [{ type: 'integer' }, { type: 'string' }],
        default: true,
      },
    }),
    errors: [
      `${p('strict')}.default: Invalid value: "": "" must validate at least one schema (anyOf)`,
      `${p('strict')}.default: Invalid value: "boolean":  in body must be of type integer: "boolean"`,
    ],
  },
  {
    name: 'list item defaults',
    schema: F.obj({ l: { type: 'array', items: F.obj({ a: F.str() }, { default: { a: 'x', b: 1 } }) } }),
    errors: [
      `${p('l')}.items.default: Invalid value: map[string]interface {}{"a":"x", "b":1}: must not have unknown fields`,
    ],
  },
  {
    name: 'a schema toStructural refuses (never passed by CRD validation): one error at the schema',
    schema: F.obj({ a: F.str({ default: 'x' }) }, { 'x-kubernetes-preserve-unknown-fields': false }),
    errors: [
      `${AT}: Invalid value: "": internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined`,
    ],
  },
];

const render = (errs: FieldError[]) =>
  errs.map((e): Expected => `${e.field}: ${e.message}`).sort((a, b) => String(a).localeCompare(String(b)));

describe('validateSchemaDefaults (upstream defaulting.ValidateDefaults)', () => {
  it.each(cases)('$name', ({ schema, at = AT, requirePruned = true, errors }) => {
    const input = structuredClone(schema);
    const got = validateSchemaDefaults(input, at, requirePruned);
    expect(input).toEqual(schema);
    const whole = errors.filter((e): e is string => typeof e === 'string');
    const partial = errors.filter((e): e is [string, FieldError['reason']] => Array.isArray(e));
    const partialFields = new Set(partial.map(([f]) => f));
    expect(render(got.filter((e) => !partialFields.has(e.field)))).toEqual(whole.sort((a, b) => a.localeCompare(b)));
    expect(got.filter((e) => partialFields.has(e.field)).map((e) => [e.field, e.reason])).toEqual(
      expect.arrayContaining(partial),
    );
    expect(got.length).toBe(errors.length);
  });

  it('counts the embedded metadata cases as upstream lists them (46 errors)', () => {
    expect(validateSchemaDefaults(F.embeddedMetadataDefaults, AT, true)).toHaveLength(46);
  });
});
