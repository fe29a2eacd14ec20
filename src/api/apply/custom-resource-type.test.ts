import { describe, expect, it } from 'vitest';
import type { PatchMeta } from '../core/patch-meta.js';
import type { JSONSchemaProps } from '../crd-schema/types.js';
import { customResourceApplyType } from './custom-resource-type.js';
import { recordApply } from './field-manager.js';
import { formatProblems, typedProblems } from './list-items.js';

// The schemas of upstream's test/e2e/apimachinery/field_validation.go (1.33).
const PORTS: JSONSchemaProps = {
  type: 'array',
  'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
  'x-kubernetes-list-type': 'map',
  items: {
    type: 'object',
    required: ['containerPort', 'protocol'],
    properties: {
      containerPort: { type: 'integer', format: 'int32' },
      hostIP: { type: 'string' },
      hostPort: { type: 'integer', format: 'int32' },
      name: { type: 'string' },
      protocol: { type: 'string' },
    },
  },
};
const VALIDATED: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { foo: { type: 'string' }, cronSpec: { type: 'string' }, ports: PORTS } },
  },
};
const EMBEDDED: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            metadata: { type: 'object', properties: { name: { type: 'string' } } },
            spec: { type: 'object' },
          },
        },
        foo: { type: 'string' },
        ports: PORTS,
      },
    },
  },
};

// The list types these configurations meet (upstream: ObjectMeta's and the schemas' list tags).
const META: PatchMeta = {
  fields: {
    metadata: {
      fields: { finalizers: { listType: 'set' }, ownerReferences: { listType: 'map', listMapKeys: ['uid'] } },
    },
    spec: { fields: { ports: { listType: 'map', listMapKeys: ['containerPort', 'protocol'] } } },
  },
};

/** The problems of applying `config` to a version with `schema` (what the field manager reports). */
function problems(schema: JSONSchemaProps | undefined, config: unknown, preserveUnknownFields = false): string[] {
  const type = customResourceApplyType(schema, preserveUnknownFields);
  return typedProblems(config as never, META, false, type);
}

const obj = (rest: Record<string, unknown>) => ({
  apiVersion: 'g/v1',
  kind: 'Noxu',
  metadata: { name: 'mytest', finalizers: ['test-finalizer'] },
  ...rest,
});
const PORT = { name: 'x', containerPort: 80, protocol: 'TCP' };

describe('customResourceApplyType (schemaconv of a CRD version, as typed conversion refuses fields)', () => {
  it('accepts a configuration with declared fields only', () => {
    expect(problems(VALIDATED, obj({ spec: { foo: 'foo1', cronSpec: '* * * * */5', ports: [PORT] } }))).toEqual([]);
  });

  it('refuses a field the root does not declare, and one in spec', () => {
    expect(problems(VALIDATED, obj({ unknownField: 'unknown', spec: { foo: 'x' } }))).toEqual([
      '.unknownField: field not declared in schema',
    ]);
    expect(problems(VALIDATED, obj({ spec: { foo: 'x', bar: 1 } }))).toEqual([
      '.spec.bar: field not declared in schema',
    ]);
  });

  it('stops at the first undeclared field of an object, as visitMapItems does', () => {
    expect(problems(VALIDATED, obj({ spec: { a: 1, b: 2 }, c: 3 }))).toEqual([
      '.spec.a: field not declared in schema',
      '.c: field not declared in schema',
    ]);
    expect(problems(VALIDATED, obj({ c: 3, spec: { a: 1 } }))).toEqual(['.c: field not declared in schema']);
  });

  it('types the metadata of the root and of embedded resources as ObjectMeta, under preserved fields too', () => {
    const config = {
      apiVersion: 'g/v1',
      kind: 'Noxu',
      metadata: { name: 'mytest', unknownMeta: 'unknown', finalizers: ['test-finalizer'] },
      spec: {
        template: {
          apiversion: 'foo/v1',
          kind: 'Sub',
          metadata: { unknownSubMeta: 'unknown', name: 'subobject', namespace: 'ns' },
        },
        foo: 'foo1',
        other: { free: true },
      },
    };
    const found = problems(EMBEDDED, config);
    expect(found).toEqual([
      '.metadata.unknownMeta: field not declared in schema',
      '.spec.template.metadata.unknownSubMeta: field not declared in schema',
    ]);
    expect(formatProblems(found)).toBe(
      'errors:\n  .metadata.unknownMeta: field not declared in schema\n  .spec.template.metadata.unknownSubMeta: field not declared in schema',
    );
  });

  it('checks ObjectMeta below: owner references are closed structs, labels free maps', () => {
    const ref = { apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u', extra: 1 };
    expect(
      problems(VALIDATED, { ...obj({}), metadata: { name: 'a', labels: { any: 'x' }, ownerReferences: [ref] } }),
    ).toEqual(['.metadata.ownerReferences[uid="u"].extra: field not declared in schema']);
  });

  it('an embedded resource without preserved fields declares its properties and the type fields', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            t: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
          },
        },
      },
    };
    const t = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { anything: [1] } };
    expect(problems(schema, obj({ spec: { t } }))).toEqual([]);
    expect(problems(schema, obj({ spec: { t: { ...t, status: {} } } }))).toEqual([
      '.spec.t.status: field not declared in schema',
    ]);
  });

  it('reads additionalProperties, free-form objects, int-or-string and lists', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            free: { type: 'object' },
            map: { type: 'object', additionalProperties: { type: 'object', properties: { a: { type: 'string' } } } },
            any: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
            ios: { 'x-kubernetes-int-or-string': true },
            list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
          },
        },
      },
    };
    const ok = { free: { x: { y: 1 } }, map: { k: { a: 'v' } }, any: { a: 'x', b: 2 }, ios: 1, list: [{ a: 'x' }] };
    expect(problems(schema, obj({ spec: ok }))).toEqual([]);
    expect(problems(schema, obj({ spec: { map: { k: { b: 1 } } } }))).toEqual([
      '.spec.map.k.b: field not declared in schema',
    ]);
    expect(problems(schema, obj({ spec: { list: [{ a: 'x' }, { b: 1 }] } }))).toEqual([
      '.spec.list[1].b: field not declared in schema',
    ]);
    expect(problems(schema, obj({ spec: { ports: [] } }))).toEqual(['.spec.ports: field not declared in schema']);
  });

  it('a root that declares no properties still declares apiVersion, kind and metadata only', () => {
    expect(problems({ type: 'object' }, obj({ spec: {} }))).toEqual(['.spec: field not declared in schema']);
  });

  it('admits anything with preserveUnknownFields, without a schema, or under x-kubernetes-preserve-unknown-fields', () => {
    const config = obj({ spec: { a: { b: [1, { c: 2 }] } }, extra: 1 });
    expect(problems(VALIDATED, config, true)).toEqual([]);
    expect(problems(undefined, config)).toEqual([]);
    expect(problems({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, config)).toEqual([]);
    expect(
      problems({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, obj({ metadata: { x: 1 } })),
    ).toEqual(['.metadata.x: field not declared in schema']);
  });

  it('leaves a value of the wrong type to validation', () => {
    expect(problems(VALIDATED, obj({ spec: { foo: { a: 1 }, ports: { b: 2 } } }))).toEqual([]);
  });
});

describe('recordApply with a custom resource type (managedfields structuredmerge.go Apply)', () => {
  it("refuses an undeclared field as upstream's typed patch object error, before merging", () => {
    const type = customResourceApplyType(VALIDATED, false);
    const config = {
      ...obj({ unknownField: 'unknown', spec: { foo: 'x' } }),
      metadata: { name: 'mytest', namespace: 'ns' },
    };
    expect(recordApply(null, config, 'mgr', undefined, META, { apiVersion: 'g/v1', kind: 'Noxu', type })).toEqual({
      status: 'invalid',
      code: 500,
      message:
        'failed to create typed patch object (ns/mytest; g/v1, Kind=Noxu): .unknownField: field not declared in schema',
    });
    const ok = recordApply(null, obj({ spec: { foo: 'x' } }), 'mgr', undefined, META, {
      apiVersion: 'g/v1',
      kind: 'Noxu',
      type,
    });
    expect(ok.status).toBe('applied');
  });
});
