// kube-openapi's validator as apiextensions runs it: keyword order and results, junctors, numbers
// as Go sees them, and 1.33's ratcheting of unchanged values on update.
import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './openapi-result.js';
import { validateSchema } from './openapi-validator.js';
import type { JSONSchemaProps } from './types.js';

const check = (s: JSONSchemaProps, data: unknown, old?: unknown) =>
  toFieldErrors(validateSchema(s, '', data, old === undefined ? undefined : { value: old }))
    .map((e) => `${e.field}: ${e.message}`)
    .sort();

describe('validateSchema', () => {
  it('checks numbers as Go does: integer bounds are truncated, floats printed with %v', () => {
    const s: JSONSchemaProps = {
      properties: {
        i: { type: 'integer', maximum: 10.5, exclusiveMaximum: true },
        f: { type: 'number', minimum: 0.5 },
      },
    };
    expect(check(s, { i: 10, f: 0.25 })).toEqual([
      'f: Invalid value: 0.25: f in body should be greater than or equal to 0.5',
      'i: Invalid value: 10: i in body should be less than 10',
    ]);
    expect(check({ type: 'integer' }, 1.5)).toEqual([
      '<nil>: Invalid value: "number":  in body must be of type integer: "number"',
    ]);
    expect(check({ type: 'number' }, 3)).toEqual([]);
  });

  it('reports min items, properties and lengths with their values', () => {
    const s: JSONSchemaProps = {
      properties: {
        l: { type: 'array', minItems: 2 },
        o: { type: 'object', minProperties: 1 },
        s: { type: 'string', minLength: 3 },
      },
    };
    expect(check(s, { l: [1], o: {}, s: 'ab' })).toEqual([
      'l: Invalid value: 1: l in body should have at least 2 items',
      'o: Invalid value: 0: o in body should have at least 1 properties',
      's: Invalid value: "ab": s in body should be at least 3 chars long',
    ]);
  });

  it('reports oneOf and not at the nil path, as upstream', () => {
    expect(check({ properties: { x: { oneOf: [{ type: 'integer' }, { minimum: 0 }] } } }, { x: 5 })).toEqual([
      '<nil>: Invalid value: "": "x" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(check({ properties: { x: { not: { type: 'string' } } } }, { x: 'a' })).toEqual([
      '<nil>: Invalid value: "": "x" must not validate the schema (not)',
    ]);
  });

  it('rejects null unless nullable, and null never matches an enum', () => {
    expect(check({ properties: { e: { enum: ['a'], nullable: true } } }, { e: null })).toEqual([
      'e: Unsupported value: "null": supported values: "a"',
    ]);
  });

  it('keeps Go enum conversions: 1.5 matches 1 after int conversion', () => {
    expect(check({ enum: [1] }, 1.5)).toEqual([]);
    expect(check({ enum: [1, { a: 1 }] }, 2)).toEqual([
      '<nil>: Unsupported value: 2: supported values: "1", "{\\"a\\":1}"',
    ]);
  });

  describe('ratcheting on update (1.33)', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 3 },
            other: { type: 'string' },
            items: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['k'],
              items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer', maximum: 5 } } },
            },
            plain: { type: 'array', items: { type: 'integer', maximum: 5 } },
          },
        },
      },
    };
    const old = { spec: { name: 'toolong', other: 'a', items: [{ k: 'a', v: 9 }], plain: [9] } };

    it('drops errors of unchanged values, correlating map-list items by key', () => {
      const next = {
        spec: {
          name: 'toolong',
          other: 'b',
          items: [
            { k: 'b', v: 1 },
            { k: 'a', v: 9 },
          ],
          plain: [9],
        },
      };
      // plain[0] is unchanged but plain lists do not correlate by index... the whole list is
      // unchanged though, so its errors are ratcheted too.
      expect(check(s, next, old)).toEqual([]);
    });

    it('keeps errors of changed values', () => {
      const next = { spec: { name: 'toolonger', other: 'a', items: [{ k: 'a', v: 10 }], plain: [9, 1] } };
      expect(check(s, next, old)).toEqual([
        'spec.items[0].v: Invalid value: 10: spec.items[0].v in body should be less than or equal to 5',
        'spec.name: Too long: may not be more than 3 bytes',
        'spec.plain[0]: Invalid value: 9: spec.plain[0] in body should be less than or equal to 5',
      ]);
      expect(check(s, next)).toHaveLength(3);
    });
  });
});
