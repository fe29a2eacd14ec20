import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiObject } from '../../api/object.js';
import { ResourceRegistry } from '../../registry/resource-registry.js';
import { MemoryKvStore } from '../../storage/kv/memory/memory-store.js';
import { ObjectStore } from '../../storage/object-store.js';
import { customResourceDefinitions } from './customresourcedefinitions.resource.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import { nonStructuralSchemaCondition } from './nonstructural-condition.js';
import { customResourceDefinitionV1beta1Conversion as conversion } from './v1beta1.conversion.js';
import { customResourceDefinitionsV1beta1 } from './v1beta1.resource.js';

/**
 * apiextensions.k8s.io/v1beta1 CustomResourceDefinitions through the registry, as a client of
 * upstream 1.21 sees them: created with v1beta1's defaults, stored as v1, read back in both
 * versions, validated with the rules of a v1beta1 request.
 */
let kv: MemoryKvStore;
let registry: ResourceRegistry;
beforeAll(() => {
  kv = new MemoryKvStore();
  registry = new ResourceRegistry(
    [customResourceDefinitions, customResourceDefinitionsV1beta1],
    new ObjectStore(kv, '/registry'),
  );
});
afterAll(() => kv.close());

const v1 = () => registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
const v1beta1 = () => registry.lookup('apiextensions.k8s.io', 'v1beta1', 'customresourcedefinitions')!;

/** A v1beta1 definition of `<plural>.example.com` as charts of the 1.1x era wrote them. */
function legacy(plural: string, spec: Record<string, unknown> = {}): ApiObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1beta1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      version: 'v1alpha1',
      names: { plural, kind: plural[0]!.toUpperCase() + plural.slice(1, -1) },
      ...spec,
    },
  };
}

const refusal = async (p: Promise<unknown>) => {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code: number; details?: { causes?: { field: string; message: string }[] } } | undefined;
  expect(err?.code).toBe(422);
  return (err?.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
};

describe('v1beta1 CustomResourceDefinitions', () => {
  it('applies v1beta1 defaults and stores v1 with the top-level fields in every version', async () => {
    const created = await v1beta1().create(
      '',
      legacy('widgets', {
        validation: { openAPIV3Schema: { properties: { spec: { type: 'object' } } } },
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
        versions: [
          { name: 'v1alpha1', served: true, storage: true },
          { name: 'v1alpha2', served: true, storage: false },
        ],
      }),
    );
    expect(created.spec).toMatchObject({
      version: 'v1alpha1',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      conversion: { strategy: 'None' },
      preserveUnknownFields: true,
      validation: { openAPIV3Schema: { properties: { spec: { type: 'object' } } } },
      additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
    });
    expect(created.status).toMatchObject({ storedVersions: ['v1alpha1'] });
    const stored = (await v1().get('', 'widgets.example.com')) as CustomResourceDefinition;
    expect(stored.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(stored.spec).not.toHaveProperty('version');
    expect(stored.spec.preserveUnknownFields).toBe(true);
    for (const v of stored.spec.versions)
      expect(v).toMatchObject({
        schema: { openAPIV3Schema: { properties: { spec: { type: 'object' } } } },
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
      });
  });

  it('serves a v1 definition in v1beta1: shared per-version fields at the top, the rest per version', async () => {
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } };
    await v1().create('', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gears.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Cluster',
        names: { plural: 'gears', kind: 'Gear' },
        versions: [
          { name: 'v2', served: true, storage: true, schema, subresources: { status: {} } },
          { name: 'v1', served: true, storage: false, schema },
        ],
      },
    });
    const got = await v1beta1().get('', 'gears.example.com');
    expect(got.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
    expect(got.spec).toEqual({
      group: 'example.com',
      version: 'v2',
      names: { plural: 'gears', singular: 'gear', kind: 'Gear', listKind: 'GearList' },
      scope: 'Cluster',
      validation: schema,
      versions: [
        { name: 'v2', served: true, storage: true, subresources: { status: {} } },
        { name: 'v1', served: true, storage: false },
      ],
      conversion: { strategy: 'None' },
      preserveUnknownFields: false,
    });
    // An update through v1beta1 of what it read changes nothing stored.
    const before = await v1().get('', 'gears.example.com');
    await v1beta1().update('', 'gears.example.com', (old) => old);
    const after = await v1().get('', 'gears.example.com');
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.generation).toBe(before.metadata.generation);
  });

  it('converts a conversion webhook between the two shapes, never changing what it converts', () => {
    const request = legacy('hooks', {
      conversion: {
        strategy: 'Webhook',
        webhookClientConfig: { service: { namespace: 'ns', name: 'svc' }, caBundle: 'Zm9v' },
      },
    });
    conversion.defaults!(request);
    const snapshot = structuredClone(request);
    const stored = conversion.toStorage(request);
    expect(request).toEqual(snapshot);
    expect((stored.spec as CustomResourceDefinition['spec']).conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 }, caBundle: 'Zm9v' },
        conversionReviewVersions: ['v1beta1'],
      },
    });
    const served = conversion.fromStorage(stored);
    expect((served.spec as Record<string, unknown>).conversion).toEqual(
      (request.spec as Record<string, unknown>).conversion,
    );
  });

  it('accepts what only v1beta1 allows: no schema, preserveUnknownFields, a non-structural schema, a k8s.io group', async () => {
    await v1beta1().create('', legacy('bares'));
    const bare = (await v1().get('', 'bares.example.com')) as CustomResourceDefinition;
    expect(bare.spec.versions).toEqual([{ name: 'v1alpha1', served: true, storage: true }]);
    const nonStructural = { openAPIV3Schema: { properties: { spec: { properties: { size: { type: 'integer' } } } } } };
    await v1beta1().create('', legacy('loose', { validation: nonStructural }));
    const protectedGroup = legacy('things', { group: 'x.k8s.io' });
    protectedGroup.metadata.name = 'things.x.k8s.io';
    await v1beta1().create('', protectedGroup);
    // The same definition through v1 is refused.
    const asV1 = structuredClone((await v1().get('', 'loose.example.com')) as CustomResourceDefinition);
    asV1.metadata = { name: 'loose2.example.com' };
    asV1.spec.names.plural = 'loose2';
    const errs = await refusal(v1().create('', asV1));
    expect(errs).toContain(
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    );
    expect(errs).toContain('spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root');
  });

  it('refuses what upstream refused of a v1beta1 request, with its paths and messages', async () => {
    const schema = { openAPIV3Schema: { type: 'object' } };
    const errs = await refusal(
      v1beta1().create(
        '',
        legacy('clashes', {
          version: 'v2',
          preserveUnknownFields: false,
          validation: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string', default: 'x' } } } },
          versions: [
            { name: 'v1alpha1', served: true, storage: true, schema },
            { name: 'v1alpha2', served: true, storage: false, schema },
          ],
        }),
      ),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        'spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive',
        expect.stringMatching(
          /^spec\.versions: Invalid value: .*: per-version schemas may not all be set to identical values \(top-level validation should be used instead\)$/,
        ),
        'spec.version: Invalid value: "v2": must match the first version in spec.versions',
        'spec.validation.openAPIV3Schema.properties[a].default: Forbidden: must not be set (cannot set default values in apiextensions.k8s.io/v1beta1 CRDs, must use apiextensions.k8s.io/v1)',
      ]),
    );
    // Pruning needs a structural schema, in v1beta1 too.
    const pruned = await refusal(
      v1beta1().create(
        '',
        legacy('pruned', {
          preserveUnknownFields: false,
          validation: { openAPIV3Schema: { properties: { a: { type: 'string' } } } },
        }),
      ),
    );
    expect(pruned).toEqual(['spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root']);
  });
});

describe('NonStructuralSchema condition', () => {
  it('reports a definition that keeps unknown fields or has a non-structural schema, and none otherwise', async () => {
    const loose = (await v1().get('', 'loose.example.com')) as CustomResourceDefinition;
    expect(nonStructuralSchemaCondition(loose)).toEqual({
      type: 'NonStructuralSchema',
      status: 'True',
      reason: 'Violations',
      message:
        '[spec.preserveUnknownFields: Invalid value: true: must be false, spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields, spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root]',
    });
    const bare = (await v1().get('', 'bares.example.com')) as CustomResourceDefinition;
    expect(nonStructuralSchemaCondition(bare)?.message).toBe(
      'spec.preserveUnknownFields: Invalid value: true: must be false',
    );
    expect(nonStructuralSchemaCondition((await v1().get('', 'gears.example.com')) as CustomResourceDefinition)).toBe(
      undefined,
    );
    const broken = structuredClone(bare);
    broken.spec.preserveUnknownFields = false;
    broken.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', $ref: '#/x' } };
    expect(nonStructuralSchemaCondition(broken)).toMatchObject({
      status: 'Unknown',
      reason: 'StructuralError',
      message: expect.stringMatching(/^failed to check validation schema for version v1alpha1: /),
    });
  });
});
