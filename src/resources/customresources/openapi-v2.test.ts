import { describe, expect, it } from 'vitest';
import { customResourceSwaggerSchema } from './openapi-v2.js';

const GVK = { 'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }] };
const TYPE_META = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };

describe('customResourceSwaggerSchema (upstream builder V2 and ToStructuralOpenAPIV2)', () => {
  it.each([
    {
      name: 'a root preserving unknown fields is a bare object with its extensions',
      in: {
        type: 'object',
        description: 'd',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: TYPE_META,
        ...GVK,
      },
      out: { type: 'object', ...GVK },
    },
    {
      name: 'junctors are dropped',
      in: {
        type: 'object',
        properties: { a: { type: 'string', anyOf: [{ format: 'x' }], allOf: [{}], oneOf: [{}], not: {} } },
      },
      out: { type: 'object', properties: { a: { type: 'string' } } },
    },
    {
      name: 'a nullable node loses type, items and properties, and is no longer required',
      in: {
        type: 'object',
        required: ['a', 'b'],
        properties: {
          a: { type: 'object', nullable: true, properties: { x: { type: 'string' } } },
          b: { type: 'string' },
        },
      },
      out: { type: 'object', required: ['b'], properties: { a: {}, b: { type: 'string' } } },
    },
    {
      name: 'a nested node preserving unknown fields loses properties, and its type when object',
      in: {
        type: 'object',
        properties: {
          spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { x: { type: 'string' } } },
        },
      },
      out: { type: 'object', properties: { spec: { 'x-kubernetes-preserve-unknown-fields': true } } },
    },
    {
      name: 'an array left without items loses its type',
      in: {
        type: 'object',
        properties: { l: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } } },
      },
      out: { type: 'object', properties: { l: { 'x-kubernetes-preserve-unknown-fields': true } } },
    },
    {
      name: 'nullable additionalProperties clear required',
      in: { type: 'object', required: ['a'], additionalProperties: { type: 'string', nullable: true } },
      out: { type: 'object', additionalProperties: {} },
    },
    {
      name: 'a plain schema is unchanged',
      in: {
        type: 'object',
        description: 'Foo',
        properties: {
          ...TYPE_META,
          bars: {
            type: 'array',
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
        ...GVK,
      },
      out: {
        type: 'object',
        description: 'Foo',
        properties: {
          ...TYPE_META,
          bars: {
            type: 'array',
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
        ...GVK,
      },
    },
  ])('$name', ({ in: input, out }) => {
    const before = structuredClone(input);
    expect(customResourceSwaggerSchema(input)).toEqual(out);
    expect(input).toEqual(before);
  });
});
