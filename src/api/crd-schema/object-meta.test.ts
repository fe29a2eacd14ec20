// Embedded resources (x-kubernetes-embedded-resource): upstream objectmeta/coerce.go and
// objectmeta/validation.go.
import { describe, expect, it } from 'vitest';
import { coerceEmbeddedResources, validateEmbeddedResources } from './object-meta.js';
import type { Structural } from './types.js';

const schema: Structural = {
  properties: {
    spec: {
      properties: {
        template: {
          generic: { type: 'object' },
          extensions: { xEmbeddedResource: true, xPreserveUnknownFields: true },
        },
        byName: {
          generic: {
            additionalProperties: {
              bool: true,
              structural: { extensions: { xEmbeddedResource: true, xPreserveUnknownFields: true } },
            },
          },
        },
      },
    },
  },
};
const render = (errs: { field: string; message: string }[]) => errs.map((e) => `${e.field}: ${e.message}`).sort();

describe('coerceEmbeddedResources (upstream objectmeta CoerceWithOptions)', () => {
  it('drops unknown and empty metadata fields and reports the unknown ones', () => {
    const obj = {
      spec: { byName: { a: { kind: 'Pod', metadata: { name: 'x', labels: {}, generation: 0, weird: { deep: 1 } } } } },
    };
    expect(coerceEmbeddedResources(obj, schema, { returnUnknownFieldPaths: true })).toEqual({
      unknownFieldPaths: ['spec.byName[a].metadata.weird'],
    });
    expect(obj.spec.byName.a.metadata).toEqual({ name: 'x' });
  });

  it('refuses a non-string kind and metadata of the wrong type, or drops them when asked', () => {
    expect(render([coerceEmbeddedResources({ spec: { template: { apiVersion: 1 } } }, schema).error!])).toEqual([
      'spec.template.apiVersion: Invalid value: 1: must be a string',
    ]);
    const badMeta = { spec: { template: { metadata: { name: 5 } } } };
    expect(render([coerceEmbeddedResources(badMeta, schema).error!])).toEqual([
      'spec.template.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    ]);
    const dropped = { spec: { template: { apiVersion: 1, kind: 'K' } } };
    expect(coerceEmbeddedResources(dropped, schema, { dropInvalidFields: true })).toEqual({ unknownFieldPaths: [] });
    expect(dropped.spec.template).toEqual({ kind: 'K' });
  });
});

describe('validateEmbeddedResources (upstream objectmeta Validate)', () => {
  it('requires apiVersion and kind and checks their form', () => {
    expect(render(validateEmbeddedResources({ spec: { template: {} } }, schema))).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
    ]);
    expect(
      render(validateEmbeddedResources({ spec: { template: { apiVersion: 'a/b/c', kind: '' } } }, schema)),
    ).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      'spec.template.kind: Invalid value: "": must not be empty',
    ]);
    expect(
      validateEmbeddedResources({ spec: { template: { apiVersion: 'apps/v1', kind: 'Deployment' } } }, schema),
    ).toEqual([]);
  });

  it('validates the metadata as ObjectMeta', () => {
    const errs = validateEmbeddedResources(
      {
        spec: {
          template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: '..', namespace: 'Bad_NS', generation: -1 } },
        },
      },
      schema,
    );
    expect(render(errs)).toEqual([
      'spec.template.metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      `spec.template.metadata.name: Invalid value: "..": may not be '..'`,
      expect.stringMatching(
        /^spec\.template\.metadata\.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of/,
      ),
    ]);
  });
});
