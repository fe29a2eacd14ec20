// Schemas of upstream's apiextensions-apiserver pkg/apis/apiextensions/validation/validation_test.go
// (TestValidateCustomResourceDefinition) whose defaults ValidateDefaults checks, as v1 JSON.
import type { JSONSchemaProps } from './types.js';

type Props = Record<string, JSONSchemaProps>;
export const str = (x: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', ...x });
export const obj = (properties?: Props, x: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  ...(properties ? { properties } : {}),
  ...x,
});
export const embedded = (properties?: Props, x: JSONSchemaProps = {}): JSONSchemaProps =>
  obj(properties, { 'x-kubernetes-embedded-resource': true, ...x });
const mapOf = (items: JSONSchemaProps, x: JSONSchemaProps = {}): JSONSchemaProps =>
  obj(undefined, { additionalProperties: items, ...x });
const something = { something: str() };
const enumMeta = (): Props => ({
  name: str({ enum: ['foo'] }),
  labels: mapOf(str({ enum: ['foo'] })),
});
const typeMetaEnums = (): Props => ({
  apiVersion: str({ enum: ['foo/v1'] }),
  kind: str({ enum: ['Foo'] }),
});
const constrained = (): JSONSchemaProps => embedded({ ...typeMetaEnums(), metadata: obj(enumMeta()) });
const spanning = (inner: JSONSchemaProps, def: unknown): JSONSchemaProps => obj({ embedded: inner }, { default: def });
const pod = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'foo', unknown: 42 },
  ...extra,
});
const fooMeta = (metadata: Record<string, unknown>) => ({ apiVersion: 'foo/v1', kind: 'Foo', metadata });
const preserveEmbedded = () => embedded({}, { 'x-kubernetes-preserve-unknown-fields': true });

/** "invalid defaults with enabled feature gate, structural schema". */
export const invalidDefaults: JSONSchemaProps = obj({
  a: obj({ foo: str() }, { default: { foo: 'abc', bar: 42 } }),
  b: obj({ foo: str() }, { default: { foo: 'abc' } }),
  c: obj({ foo: str() }, { default: { foo: 42 } }),
  d: obj({ good: str({ pattern: 'a' }), bad: str({ pattern: 'b' }) }, { default: { good: 'a', bad: 'a' } }),
  e: obj(
    {
      preserveUnknownFields: obj(undefined, { default: { foo: 'abc', bar: 42 } }),
      nestedProperties: obj({ foo: str() }, { default: { foo: 'abc', bar: 42 } }),
    },
    { 'x-kubernetes-preserve-unknown-fields': true },
  ),
  'embedded-fine': embedded(
    { foo: str() },
    { default: { foo: 'abc', apiVersion: 'foo/v1', kind: 'v1', metadata: { name: 'foo' } } },
  ),
  'embedded-preserve': embedded(
    { foo: str() },
    {
      'x-kubernetes-preserve-unknown-fields': true,
      default: { foo: 'abc', apiVersion: 'foo/v1', kind: 'v1', metadata: { name: 'foo' }, bar: 42 },
    },
  ),
  'embedded-preserve-unpruned-objectmeta': embedded(
    { foo: str() },
    {
      'x-kubernetes-preserve-unknown-fields': true,
      default: {
        foo: 'abc',
        apiVersion: 'foo/v1',
        kind: 'v1',
        metadata: { name: 'foo', unspecified: 'bar' },
        bar: 42,
      },
    },
  ),
});

/** "v1.15 era tests for metadata defaults": the four versions' schemas. */
export const v115MetadataDefaults: JSONSchemaProps[] = [
  obj({
    metadata: obj(undefined, { default: { name: 'foo' } }),
    embedded: embedded({ metadata: obj(undefined, { default: { name: 'foo', unknown: 42 } }) }),
  }),
  obj({
    metadata: obj({ name: str({ default: 'foo' }) }),
    embedded: embedded({
      apiVersion: str({ default: 'v1' }),
      kind: str({ default: 'Pod' }),
      metadata: obj({ name: str({ default: 'foo' }) }),
    }),
  }),
  obj({
    embedded: embedded({
      apiVersion: str({ default: 'v1' }),
      kind: str({ default: '%' }),
      metadata: obj(undefined, { default: { labels: { bar: 'x y' } } }),
    }),
  }),
  obj({
    embedded: embedded({
      metadata: obj({
        name: str({ default: 42 }),
        labels: obj({ bar: str({ default: 42 }) }),
      }),
    }),
  }),
];

/** "embedded metadata defaults". */
export const embeddedMetadataDefaults: JSONSchemaProps = obj({
  embedded: embedded({ metadata: obj(undefined, { default: { name: 'foo' } }) }),
  'allowed-in-object-defaults': embedded({
    apiVersion: str({ default: 'v1' }),
    kind: str({ default: 'Pod' }),
    metadata: obj({ name: str({ default: 'foo' }) }, { default: { unknown: 42 } }),
  }),
  'allowed-object-defaults': embedded(something, { default: pod() }),
  'allowed-spanning-object-defaults': spanning(embedded(something), { embedded: pod() }),
  'unknown-field-object-defaults': embedded(something, { default: pod({ unknown: 42 }) }),
  'unknown-field-spanning-object-defaults': spanning(embedded(something), {
    embedded: pod({ unknown: 42 }),
    unknown: 42,
  }),
  'x-preserve-unknown-fields-unknown-field-object-defaults': embedded(
    {},
    { 'x-kubernetes-preserve-unknown-fields': true, default: pod({ unknown: 42 }) },
  ),
  'x-preserve-unknown-fields-unknown-field-spanning-object-defaults': spanning(preserveEmbedded(), {
    embedded: pod({ unknown: 42 }),
  }),
  'x-preserve-unknown-fields-unknown-field-outside': spanning(preserveEmbedded(), {
    embedded: pod({ unknown: 42 }),
    unknown: 42,
  }),
  'wrongly-typed-in-object-defaults': embedded({
    apiVersion: str({ default: 42 }),
    kind: str({ default: 42 }),
    metadata: obj({ name: str({ default: 42 }), annotations: mapOf(str(), { default: 42 }) }),
  }),
  'wrongly-typed-object-defaults-apiVersion': embedded(something, { default: { apiVersion: 42 } }),
  'wrongly-typed-object-defaults-kind': embedded(something, { default: { kind: 42 } }),
  'wrongly-typed-object-defaults-name': embedded(something, { default: { metadata: { name: 42 } } }),
  'wrongly-typed-object-defaults-labels': embedded(something, { default: { metadata: { labels: { foo: 42 } } } }),
  'wrongly-typed-object-defaults-annotations': embedded(something, { default: { metadata: { annotations: 42 } } }),
  'wrongly-typed-object-defaults-metadata': embedded(something, { default: { metadata: 42 } }),
  'wrongly-typed-spanning-object-defaults-apiVersion': spanning(embedded(something), { embedded: { apiVersion: 42 } }),
  'wrongly-typed-spanning-object-defaults-kind': spanning(embedded(something), { embedded: { kind: 42 } }),
  'wrongly-typed-spanning-object-defaults-name': spanning(embedded(something), {
    embedded: { metadata: { name: 42 } },
  }),
  'wrongly-typed-spanning-object-defaults-labels': spanning(embedded(something), {
    embedded: { metadata: { labels: { foo: 42 } } },
  }),
  'wrongly-typed-spanning-object-defaults-annotations': spanning(embedded(something), {
    embedded: { metadata: { annotations: 42 } },
  }),
  'wrongly-typed-spanning-object-defaults-metadata': spanning(embedded(something), { embedded: { metadata: 42 } }),
  'invalid-in-object-defaults': embedded({
    kind: str({ default: '%' }),
    metadata: obj({ name: str({ default: '%' }), labels: mapOf(str(), { default: { foo: 'x y' } }) }),
  }),
  'invalid-object-defaults-kind': embedded(something, { default: { apiVersion: 'foo/v1', kind: '%' } }),
  'invalid-object-defaults-name': embedded(something, { default: fooMeta({ name: '%' }) }),
  'invalid-object-defaults-labels': embedded(something, { default: fooMeta({ labels: { foo: 'x y' } }) }),
  'invalid-spanning-object-defaults-kind': spanning(embedded(something), {
    embedded: { apiVersion: 'foo/v1', kind: '%' },
  }),
  'invalid-spanning-object-defaults-name': spanning(embedded(something), { embedded: fooMeta({ name: '%' }) }),
  'invalid-spanning-object-defaults-labels': spanning(embedded(something), {
    embedded: fooMeta({ labels: { foo: 'x y' } }),
  }),
  'in-object-defaults-with-valid-constraints': embedded({
    apiVersion: str({ default: 'foo/v1', enum: ['foo/v1'] }),
    kind: str({ default: 'Foo', enum: ['Foo'] }),
    metadata: obj({
      name: str({ default: 'foo', enum: ['foo'] }),
      labels: mapOf(str({ enum: ['foo'] }), { default: { foo: 'foo' } }),
    }),
  }),
  'metadata-defaults-with-valid-constraints': embedded({
    metadata: obj(enumMeta(), { default: { name: 'foo', labels: { foo: 'foo' } } }),
  }),
  'object-defaults-with-valid-constraints': {
    ...constrained(),
    default: fooMeta({ name: 'foo', labels: { foo: 'foo' } }),
  },
  'spanning-defaults-with-valid-constraints': spanning(constrained(), {
    embedded: fooMeta({ name: 'foo', labels: { foo: 'foo' } }),
  }),
  'in-object-defaults-with-invalid-constraints': embedded({
    apiVersion: str({ description: 'BREAK', default: 'bar/v1', enum: ['foo/v1'] }),
    kind: str({ default: 'Bar', enum: ['Foo'] }),
    metadata: obj({
      name: str({ default: 'bar', enum: ['foo'] }),
      labels: mapOf(str({ enum: ['foo'] }), { default: { foo: 'bar' } }),
    }),
  }),
  'metadata-defaults-with-invalid-constraints-name': embedded({
    metadata: obj(enumMeta(), { default: { name: 'bar' } }),
  }),
  'metadata-defaults-with-invalid-constraints-labels': embedded({
    metadata: obj(enumMeta(), { default: { name: 'foo', labels: { foo: 'bar' } } }),
  }),
  'object-defaults-with-invalid-constraints-name': { ...constrained(), default: fooMeta({ name: 'bar' }) },
  'object-defaults-with-invalid-constraints-labels': {
    ...constrained(),
    default: fooMeta({ name: 'foo', labels: { foo: 'bar' } }),
  },
  'object-defaults-with-invalid-constraints-apiVersion': {
    ...constrained(),
    default: { apiVersion: 'bar/v1', kind: 'Foo', metadata: { name: 'foo' } },
  },
  'object-defaults-with-invalid-constraints-kind': {
    ...constrained(),
    default: { apiVersion: 'foo/v1', kind: 'Bar', metadata: { name: 'foo' } },
  },
  'spanning-defaults-with-invalid-constraints-name': spanning(constrained(), {
    embedded: fooMeta({ name: 'bar', labels: { foo: 'foo' } }),
  }),
  'spanning-defaults-with-invalid-constraints-labels': spanning(constrained(), {
    embedded: fooMeta({ name: 'foo', labels: { foo: 'bar' } }),
  }),
  'spanning-defaults-with-invalid-constraints-apiVersion': spanning(constrained(), {
    embedded: { apiVersion: 'bar/v1', kind: 'Foo', metadata: { name: 'foo', labels: { foo: 'foo' } } },
  }),
  'spanning-defaults-with-invalid-constraints-kind': spanning(constrained(), {
    embedded: { apiVersion: 'foo/v1', kind: 'Bar', metadata: { name: 'foo', labels: { foo: 'foo' } } },
  }),
  'object-defaults-with-missing-typemeta': embedded(typeMetaEnums(), { default: { metadata: { name: 'bar' } } }),
  'spanning-defaults-with-missing-typemeta': spanning(embedded(typeMetaEnums()), {
    embedded: { metadata: { name: 'bar' } },
  }),
});
