// Upstream apiextensions-apiserver pkg/apiserver/schema/convert.go (NewStructural): what is
// kept, where, and what is refused.
import { describe, expect, it } from 'vitest';
import { toStructural } from './structural.js';

describe('toStructural (upstream NewStructural)', () => {
  it('splits generic, extensions and value validations, recursively', () => {
    const s = toStructural({
      type: 'object',
      description: 'd',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          additionalProperties: { type: 'integer', default: 3, minimum: 0 },
        },
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object' },
        },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      },
      required: ['spec'],
      example: { ignored: true },
    });
    expect(s?.generic).toEqual({ type: 'object', description: 'd' });
    expect(s?.valueValidation).toEqual({ required: ['spec'] });
    const spec = s!.properties!.spec;
    expect(spec.extensions).toEqual({ xPreserveUnknownFields: true });
    expect(spec.generic?.additionalProperties?.bool).toBe(true);
    expect(spec.generic?.additionalProperties?.structural?.generic).toEqual({ type: 'integer', default: 3 });
    expect(spec.generic?.additionalProperties?.structural?.valueValidation).toEqual({ minimum: 0 });
    expect(s!.properties!.list.extensions).toEqual({ xListType: 'map', xListMapKeys: ['name'] });
    expect(s!.properties!.list.items?.generic?.type).toBe('object');
    const port = s!.properties!.port;
    expect(port.extensions?.xIntOrString).toBe(true);
    expect(port.valueValidation?.anyOf?.map((n) => n.forbiddenGenerics.type)).toEqual(['integer', 'string']);
  });

  it('treats a null default as none and additionalProperties: false as a bool', () => {
    const s = toStructural({ type: 'object', default: null, additionalProperties: false });
    expect(s?.generic).toEqual({ type: 'object', additionalProperties: { bool: false } });
  });

  it.each([
    [{ id: 'x' }, "OpenAPIV3Schema 'id' is not supported"],
    [{ $ref: '#/x' }, "OpenAPIV3Schema '$ref' is not supported"],
    [{ patternProperties: { a: {} } }, "OpenAPIV3Schema 'patternProperties' is not supported"],
    [{ items: [{}] }, "OpenAPIV3Schema 'items' must be a schema, but is an array"],
    [
      { 'x-kubernetes-preserve-unknown-fields': false },
      "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
    ],
    [{ allOf: [{ definitions: { a: {} } }] }, "OpenAPIV3Schema 'definitions' is not supported"],
  ])('refuses %j', (props, message) => {
    expect(() => toStructural(props)).toThrow(message);
  });
});
