/**
 * Cases of upstream's TestValidateCustomResourceDefinition, TestValidateCustomResourceDefinitionUpdate
 * and TestValidateCustomResourceDefinitionStoredVersions (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation_test.go, 1.33), on the internal form as upstream
 * writes them, matched as upstream matches: reason and field path of every error.
 */
import { describe, expect, it } from 'vitest';
import { validateInternalCreate, validateInternalUpdate } from './customresourcedefinitions.validation.js';
import type { InternalCrd } from './internal.js';
import {
  duplicate,
  forbidden,
  internalCrd,
  invalid,
  required,
  twoVersions,
  unmatched,
  unsupported,
  type Expected,
} from './validation.fixture.js';

const EXAMPLE_CERT = `-----BEGIN CERTIFICATE-----
MIIDADCCAeigAwIBAgIQVHG3Fn9SdWayyLOZKCW1vzANBgkqhkiG9w0BAQsFADAS
MRAwDgYDVQQKEwdBY21lIENvMCAXDTcwMDEwMTAwMDAwMFoYDzIwODQwMTI5MTYw
MDAwWjASMRAwDgYDVQQKEwdBY21lIENvMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A
MIIBCgKCAQEArTCu9fiIclNgDdWHphewM+JW55dCb5yYGlJgCBvwbOx547M9p+tn
zm9QOhsdZDHDZsG9tqnWxE2Nc1HpIJyOlfYsOoonpEoG/Ep6nnK91ngj0bn/JlNy
+i/bwU4r97MOukvnOIQez9/D9jAJaOX2+b8/d4lRz9BsqiwJyg+ynZ5tVVYj7aMi
vXnd6HOnJmtqutOtr3beucJnkd6XbwRkLUcAYATT+ZihOWRbTuKqhCg6zGkJOoUG
f8sX61JjoilxiURA//ftGVbdTCU3DrmGmardp5NNOHbumMYU8Vhmqgx1Bqxb+9he
7G42uW5YWYK/GqJzgVPjjlB2dOGj9KrEWQIDAQABo1AwTjAOBgNVHQ8BAf8EBAMC
AqQwEwYDVR0lBAwwCgYIKwYBBQUHAwEwDwYDVR0TAQH/BAUwAwEB/zAWBgNVHREE
DzANggtleGFtcGxlLmNvbTANBgkqhkiG9w0BAQsFAAOCAQEAig4AIi9xWs1+pLES
eeGGdSDoclplFpcbXANnsYYFyLf+8pcWgVi2bOmb2gXMbHFkB07MA82wRJAUTaA+
2iNXVQMhPCoA7J6ADUbww9doJX2S9HGyArhiV/MhHtE8txzMn2EKNLdhhk3N9rmV
x/qRbWAY1U2z4BpdrAR87Fe81Nlj7h45csW9K+eS+NgXipiNTIfEShKgCFM8EdxL
1WXg7r9AvYV3TNDPWTjLsm1rQzzZQ7Uvcf6deWiNodZd8MOT/BFLclDPTK6cF2Hr
UU4dq6G4kCwMSxWE4cM3HlZ4u1dyIt47VbkP0rtvkBCXx36y+NXYA5lzntchNFZP
uvEQdw==
-----END CERTIFICATE-----`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A webhook conversion on two versions (upstream's webhookconfig fixtures). */
function webhook(
  cc: NonNullable<NonNullable<InternalCrd['spec']['conversion']>['webhookClientConfig']>,
  reviewVersions = ['v1beta1'],
) {
  return (crd: InternalCrd) => {
    twoVersions(crd);
    crd.spec.conversion = { strategy: 'Webhook', webhookClientConfig: cc, conversionReviewVersions: reviewVersions };
  };
}

const createCases: [string, InternalCrd, Expected[]][] = [
  [
    'invalid types disallowed',
    internalCrd(
      (c) => (c.spec.validation = { openAPIV3Schema: { type: 'object', properties: { foo: { type: 'bogus' } } } }),
    ),
    [unsupported('spec.validation.openAPIV3Schema.properties[foo].type')],
  ],
  [
    'webhookconfig: invalid port 0',
    internalCrd(webhook({ service: { name: 'n', namespace: 'ns', port: 0 } })),
    [invalid('spec.conversion.webhookClientConfig.service.port')],
  ],
  [
    'webhookconfig: invalid port 65536',
    internalCrd(webhook({ service: { name: 'n', namespace: 'ns', port: 65536 } })),
    [invalid('spec.conversion.webhookClientConfig.service.port')],
  ],
  [
    'webhookconfig: invalid CABundle should be allowed on Create',
    internalCrd(webhook({ service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: 'Cg==' })),
    [],
  ],
  [
    'webhookconfig: valid CABundle',
    internalCrd(webhook({ service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: b64(EXAMPLE_CERT) })),
    [],
  ],
  [
    'webhookconfig: both service and URL provided',
    internalCrd(webhook({ url: 'https://example.com/webhook', service: { name: 'n', namespace: 'ns', port: 443 } })),
    [required('spec.conversion.webhookClientConfig')],
  ],
  [
    'webhookconfig: blank URL',
    internalCrd(webhook({ url: '' })),
    [invalid('spec.conversion.webhookClientConfig.url'), invalid('spec.conversion.webhookClientConfig.url')],
  ],
  [
    'webhookconfig_should_not_be_set',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.conversion = { strategy: 'None', webhookClientConfig: { url: 'https://example.com/webhook' } };
    }),
    [forbidden('spec.conversion.webhookClientConfig')],
  ],
  [
    'ConversionReviewVersions_should_not_be_set',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.conversion = { strategy: 'None', conversionReviewVersions: ['v1beta1'] };
    }),
    [forbidden('spec.conversion.conversionReviewVersions')],
  ],
  [
    'webhookconfig: invalid ConversionReviewVersion',
    internalCrd(webhook({ url: 'https://example.com/webhook' }, ['invalid-version'])),
    [invalid('spec.conversion.conversionReviewVersions', 'must include at least one of v1, v1beta1')],
  ],
  [
    'webhookconfig: invalid ConversionReviewVersion version string',
    internalCrd(webhook({ url: 'https://example.com/webhook' }, ['0v'])),
    [invalid('spec.conversion.conversionReviewVersions[0]'), invalid('spec.conversion.conversionReviewVersions')],
  ],
  [
    'webhookconfig: at least one valid ConversionReviewVersion',
    internalCrd(webhook({ url: 'https://example.com/webhook' }, ['invalid-version', 'v1beta1'])),
    [],
  ],
  [
    'webhookconfig: duplicate ConversionReviewVersion',
    internalCrd(webhook({ url: 'https://example.com/webhook' }, ['v1beta1', 'v1beta1'])),
    [invalid('spec.conversion.conversionReviewVersions[1]', 'duplicate version')],
  ],
  [
    'missing_webhookconfig',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.conversion = { strategy: 'Webhook', conversionReviewVersions: ['v1beta1'] };
    }),
    [required('spec.conversion.webhookClientConfig')],
  ],
  [
    'invalid_conversion_strategy',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.conversion = { strategy: 'non_existing_conversion' };
    }),
    [unsupported('spec.conversion.strategy')],
  ],
  [
    'webhook conversion without preserveUnknownFields=false',
    internalCrd((c) => {
      webhook({ url: 'https://example.com/webhook' })(c);
      c.spec.preserveUnknownFields = null;
    }),
    [invalid('spec.conversion.strategy', 'must be None if spec.preserveUnknownFields is true')],
  ],
  [
    'webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1]',
    internalCrd(webhook({ url: 'https://example.com/webhook' }, ['v1'])),
    [],
  ],
  [
    'no_storage_version',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.versions[0].storage = false;
    }),
    [invalid('spec.versions', 'must have exactly one version marked as storage version')],
  ],
  [
    'multiple_storage_version',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.versions[1].storage = true;
    }),
    [invalid('spec.versions'), invalid('status.storedVersions', 'must have the storage version version2')],
  ],
  [
    'missing_storage_version_in_stored_versions',
    internalCrd((c) => {
      twoVersions(c);
      c.spec.versions[0].storage = false;
      c.spec.versions[1].storage = true;
    }),
    [invalid('status.storedVersions', 'must have the storage version version2')],
  ],
  [
    'empty_stored_version',
    internalCrd((c) => (c.status.storedVersions = [])),
    [invalid('status.storedVersions', 'must have at least one stored version')],
  ],
  [
    'missing values',
    {
      metadata: { name: 'plural.group.com' },
      spec: { group: '', scope: '', names: { plural: '', kind: '' }, versions: [] },
      status: {},
    },
    [
      invalid('status.storedVersions'),
      invalid('metadata.name', 'must be spec.names.plural+"."+spec.group'),
      invalid('spec.versions'),
      required('spec.group'),
      required('spec.scope'),
      required('spec.names.plural'),
      required('spec.names.singular'),
      required('spec.names.kind'),
      required('spec.names.listKind'),
    ],
  ],
  [
    'bad names 01',
    {
      metadata: { name: 'plural.group' },
      spec: {
        group: 'group',
        version: 've()*rsion',
        scope: 'foo',
        names: { plural: 'pl()*ural', singular: 'value()*a', kind: 'value()*a', listKind: 'value()*a' },
        versions: [],
        preserveUnknownFields: false,
        validation: { openAPIV3Schema: { type: 'object' } },
      },
      status: {
        acceptedNames: { plural: 'pl()*ural', singular: 'value()*a', kind: 'value()*a', listKind: 'value()*a' },
      },
    },
    [
      invalid('status.storedVersions'),
      invalid('metadata.name'),
      invalid('spec.group', 'should be a domain with at least one dot'),
      unsupported('spec.scope'),
      invalid('spec.names.plural'),
      invalid('spec.names.singular'),
      invalid('spec.names.kind', 'may have mixed case'),
      invalid('spec.names.listKind'),
      invalid('spec.names.listKind', 'kind and listKind may not be the same'),
      invalid('status.acceptedNames.plural'),
      invalid('status.acceptedNames.singular'),
      invalid('status.acceptedNames.kind'),
      invalid('status.acceptedNames.listKind'),
      invalid('status.acceptedNames.listKind'),
      invalid('spec.versions'),
      invalid('spec.version'),
    ],
  ],
  [
    'bad names 02',
    internalCrd((c) => {
      c.metadata.name = 'plural.group';
      c.spec.group = 'group.c(*&om';
      c.spec.scope = '';
      c.spec.names = { plural: 'plural', singular: 'singular', kind: 'matching', listKind: 'matching' };
      c.status.acceptedNames = { ...c.spec.names };
    }),
    [
      invalid('metadata.name'),
      invalid('spec.group', 'a lowercase RFC 1123 subdomain'),
      required('spec.scope'),
      invalid('spec.names.listKind'),
      invalid('status.acceptedNames.listKind'),
    ],
  ],
  [
    'additionalProperties and properties forbidden',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: { foo: { type: 'object', properties: { bar: { type: 'object' } }, additionalProperties: false } },
        },
      };
    }),
    [forbidden('spec.validation.openAPIV3Schema.properties[foo].additionalProperties')],
  ],
  [
    'additionalProperties without properties allowed (map[string]string)',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: { foo: { type: 'object', additionalProperties: { type: 'string' } } },
        },
      };
    }),
    [],
  ],
  [
    'per-version fields may not all be set to identical values (top-level field should be used instead)',
    internalCrd((c) => {
      const perVersion = {
        schema: { openAPIV3Schema: { type: 'object' } },
        subresources: {},
        additionalPrinterColumns: [{ name: 'Alpha', type: 'string', jsonPath: '.spec.alpha' }],
      };
      c.spec.validation = undefined;
      c.spec.versions = [
        { name: 'version', served: true, storage: true, ...structuredClone(perVersion) },
        { name: 'version2', served: true, storage: false, ...structuredClone(perVersion) },
      ];
    }),
    [
      invalid('spec.versions', 'per-version schemas'),
      invalid('spec.versions', 'per-version subresources'),
      invalid('spec.versions', 'per-version additionalPrinterColumns'),
    ],
  ],
  [
    'x-kubernetes-preserve-unknown-field: false',
    internalCrd((c) => {
      c.spec.validation = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } };
    }),
    [invalid('spec.validation.openAPIV3Schema.x-kubernetes-preserve-unknown-fields', 'must be true or undefined')],
  ],
  [
    'preserveUnknownFields: true',
    internalCrd((c) => (c.spec.preserveUnknownFields = true)),
    [invalid('spec.preserveUnknownFields', 'cannot set to true')],
  ],
  [
    'schema is required',
    internalCrd((c) => {
      c.spec.validation = undefined;
      c.spec.preserveUnknownFields = true;
    }),
    [
      required('spec.versions[0].schema.openAPIV3Schema', 'schemas are required'),
      invalid('spec.preserveUnknownFields'),
    ],
  ],
  [
    'labelSelectorPath outside of .spec and .status',
    internalCrd((c) => {
      const scale = (labelSelectorPath?: string) => ({
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath },
      });
      c.spec.versions = [
        { name: 'version0', served: true, storage: true, subresources: scale() },
        { name: 'version1', served: true, storage: false, subresources: scale('.status.labelSelector') },
        { name: 'version2', served: true, storage: false, subresources: scale('.spec.labelSelector') },
        { name: 'version3', served: true, storage: false, subresources: scale('.labelSelector') },
      ];
      c.spec.version = 'version0';
      c.status.storedVersions = ['version0'];
    }),
    [
      invalid(
        'spec.versions[3].subresources.scale.labelSelectorPath',
        'should be a json path under either .spec or .status',
      ),
    ],
  ],
  [
    'x-kubernetes-embedded-resource with pruning and empty properties',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: { nil: { type: 'object', 'x-kubernetes-embedded-resource': true } },
        },
      };
    }),
    [required('spec.validation.openAPIV3Schema.properties[nil].properties')],
  ],
  [
    'x-kubernetes-embedded-resource inside resource meta',
    internalCrd((c) => {
      const embedded = {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      };
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            embedded: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              properties: {
                metadata: embedded,
                apiVersion: { type: 'string', properties: { foo: embedded } },
                kind: { type: 'string', properties: { foo: embedded } },
              },
            },
          },
        },
      };
    }),
    [
      forbidden(
        'spec.validation.openAPIV3Schema.properties[embedded].properties[metadata].x-kubernetes-embedded-resource',
      ),
      forbidden(
        'spec.validation.openAPIV3Schema.properties[embedded].properties[apiVersion].properties[foo].x-kubernetes-embedded-resource',
      ),
      forbidden(
        'spec.validation.openAPIV3Schema.properties[embedded].properties[kind].properties[foo].x-kubernetes-embedded-resource',
      ),
    ],
  ],
  [
    'defaults with enabled feature gate, unstructural schema',
    internalCrd((c) => {
      c.spec.validation = { openAPIV3Schema: { properties: { a: { default: 'abc' } } } };
    }),
    [required('spec.validation.openAPIV3Schema.properties[a].type'), required('spec.validation.openAPIV3Schema.type')],
  ],
  [
    'additionalProperties at resource root',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            embedded1: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              additionalProperties: { type: 'string' },
            },
            embedded2: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              'x-kubernetes-preserve-unknown-fields': true,
              additionalProperties: { type: 'string' },
            },
          },
        },
      };
    }),
    [
      forbidden('spec.validation.openAPIV3Schema.properties[embedded1].additionalProperties'),
      required('spec.validation.openAPIV3Schema.properties[embedded1].properties'),
      forbidden('spec.validation.openAPIV3Schema.properties[embedded2].additionalProperties'),
    ],
  ],
  [
    'top-level metadata default',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: { type: 'object', properties: { metadata: { type: 'object', default: { name: 'foo' } } } },
      };
    }),
    [
      forbidden(
        'spec.validation.openAPIV3Schema.properties[metadata].default',
        'must not be set in top-level metadata',
      ),
    ],
  ],
  [
    'default inside additionalSchema',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            metadata: {
              type: 'object',
              properties: { annotations: { type: 'object', additionalProperties: { type: 'string', default: 'abc' } } },
            },
          },
        },
      };
    }),
    [
      forbidden(
        'spec.validation.openAPIV3Schema.properties[metadata].properties[annotations].additionalProperties.default',
      ),
      forbidden(
        'spec.validation.openAPIV3Schema.properties[metadata]',
        'must not specify anything other than name and generateName',
      ),
    ],
  ],
  [
    'meta field types at the root',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: { apiVersion: { type: 'number' }, kind: { type: 'number' }, metadata: { type: 'number' } },
        },
      };
    }),
    [
      invalid('spec.validation.openAPIV3Schema.properties[apiVersion].type', 'must be string'),
      invalid('spec.validation.openAPIV3Schema.properties[kind].type', 'must be string'),
      invalid('spec.validation.openAPIV3Schema.properties[metadata].type', 'must be object'),
    ],
  ],
  [
    'x-kubernetes-validations should be forbidden under oneOf/anyOf/allOf/not, structural schema',
    internalCrd((c) => {
      const rules = [{ rule: 'self.size() < 20' }];
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            a: {
              type: 'number',
              not: { 'x-kubernetes-validations': rules },
              anyOf: [{ 'x-kubernetes-validations': rules }],
              allOf: [{ 'x-kubernetes-validations': rules }],
              oneOf: [{ 'x-kubernetes-validations': rules }],
            },
          },
        },
      };
    }),
    [
      forbidden('spec.validation.openAPIV3Schema.properties[a].not.x-kubernetes-validations'),
      forbidden('spec.validation.openAPIV3Schema.properties[a].anyOf[0].x-kubernetes-validations'),
      forbidden('spec.validation.openAPIV3Schema.properties[a].allOf[0].x-kubernetes-validations'),
      forbidden('spec.validation.openAPIV3Schema.properties[a].oneOf[0].x-kubernetes-validations'),
    ],
  ],
  [
    'x-kubernetes-validations should have valid reason and fieldPath',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self.a > 0', reason: 'InternalError', fieldPath: '.a' }],
          properties: {
            a: { type: 'number', 'x-kubernetes-validations': [{ rule: 'true', reason: 'InvalidReason' }] },
            b: { type: 'number', 'x-kubernetes-validations': [{ rule: 'true', fieldPath: '.a' }] },
          },
        },
      };
    }),
    [
      unsupported('spec.validation.openAPIV3Schema.x-kubernetes-validations[0].reason'),
      unsupported('spec.validation.openAPIV3Schema.properties[a].x-kubernetes-validations[0].reason'),
      invalid(
        'spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[0].fieldPath',
        'fieldPath must be a valid path',
      ),
    ],
  ],
  [
    'x-kubernetes-validations have invalid fieldPath',
    internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: 'self.a.b.c > 0.0', fieldPath: '.list[0].b' },
            { rule: 'self.a.b.c > 0.0', fieldPath: '   ' },
            { rule: 'self.a.b.c > 0.0', fieldPath: '.' },
            { rule: 'self.a.b.c > 0.0', fieldPath: '..' },
            { rule: 'self.a.b.c > 0.0', fieldPath: '.a\n.b' },
          ],
          properties: {
            a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'number' } } } } },
            list: { type: 'array', items: { type: 'object', properties: { b: { type: 'number' } } } },
          },
        },
      };
    }),
    [
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[0].fieldPath'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[1].fieldPath'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[1].fieldPath'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[2].fieldPath'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[3].fieldPath'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[4].fieldPath'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[4].fieldPath'),
    ],
  ],
  [
    'protected group without approval annotation',
    internalCrd((c) => {
      c.metadata.name = 'plural.group.k8s.io';
      c.spec.group = 'group.k8s.io';
    }),
    [required('metadata.annotations[api-approved.kubernetes.io]', 'protected groups must have approval annotation')],
  ],
];

describe('ValidateCustomResourceDefinition (upstream cases)', () => {
  it.each(createCases)('%s', (_name, crd, expected) => {
    expect(unmatched(validateInternalCreate(crd), expected)).toEqual({ missing: [], extra: [] });
  });
});

const established = (crd: InternalCrd) => {
  crd.status.conditions = [{ type: 'Established', status: 'True' }];
};

const updateCases: [string, InternalCrd, InternalCrd, Expected[]][] = [
  ['unchanged', internalCrd(), internalCrd(), []],
  [
    'names and scope may change before Established',
    internalCrd((c) => {
      c.spec.scope = 'Namespaced';
      c.spec.names = { ...c.spec.names, kind: 'Plural2', listKind: 'Plural2List' };
    }),
    internalCrd(),
    [],
  ],
  [
    'scope and kind immutable once Established; group and plural always',
    internalCrd((c) => {
      established(c);
      c.metadata.name = 'plural2.group2.com';
      c.spec.group = 'group2.com';
      c.spec.scope = 'Namespaced';
      c.spec.names = { plural: 'plural2', singular: 'singular', kind: 'Plural2', listKind: 'PluralList' };
    }),
    internalCrd(established),
    [
      invalid('spec.scope', 'field is immutable'),
      invalid('spec.names.kind', 'field is immutable'),
      invalid('spec.group', 'field is immutable'),
      invalid('spec.names.plural', 'field is immutable'),
    ],
  ],
  [
    'webhookconfig: existing invalid CABundle update should pass',
    internalCrd((c) => {
      established(c);
      webhook({ service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: 'Cg==' })(c);
    }),
    internalCrd((c) => {
      established(c);
      webhook({ service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: 'Cg==' })(c);
    }),
    [],
  ],
  [
    'webhookconfig: valid CABundle cannot become invalid once Established',
    internalCrd((c) => {
      established(c);
      webhook({ service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: 'Cg==' })(c);
    }),
    internalCrd((c) => {
      established(c);
      webhook({ service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: b64(EXAMPLE_CERT) })(c);
    }),
    [
      invalid(
        'spec.conversion.webhookClientConfig.caBundle',
        'unable to load root certificates: unable to parse bytes as PEM block',
      ),
    ],
  ],
  [
    'a stored non-structural schema may stay non-structural while pruning is off',
    internalCrd((c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.validation = { openAPIV3Schema: { type: 'object', properties: { a: {} } } };
    }),
    internalCrd((c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.validation = { openAPIV3Schema: { type: 'object', properties: { a: {} } } };
    }),
    [],
  ],
  [
    'a structural schema may not become non-structural',
    internalCrd((c) => (c.spec.validation = { openAPIV3Schema: { type: 'object', properties: { a: {} } } })),
    internalCrd(),
    [required('spec.validation.openAPIV3Schema.properties[a].type', 'must not be empty for specified object fields')],
  ],
  [
    'a stored invalid type may stay',
    internalCrd((c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.validation = { openAPIV3Schema: { type: 'object', properties: { a: { type: 'bogus' } } } };
    }),
    internalCrd((c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.validation = { openAPIV3Schema: { type: 'object', properties: { a: { type: 'bogus' } } } };
    }),
    [],
  ],
  [
    'approval annotation unchanged is not rechecked',
    internalCrd((c) => {
      c.metadata.name = 'plural.group.k8s.io';
      c.spec.group = 'group.k8s.io';
      c.spec.names = { ...c.spec.names, shortNames: ['p'] };
    }),
    internalCrd((c) => {
      c.metadata.name = 'plural.group.k8s.io';
      c.spec.group = 'group.k8s.io';
    }),
    [],
  ],
  [
    'stored versions must stay in spec.versions',
    internalCrd((c) => (c.status.storedVersions = ['version', 'v0'])),
    internalCrd(),
    [invalid('status.storedVersions[1]', 'missing from spec.versions; v0 was previously a storage version')],
  ],
];

describe('ValidateCustomResourceDefinitionUpdate', () => {
  it.each(updateCases)('%s', (_name, crd, old, expected) => {
    expect(unmatched(validateInternalUpdate(crd, old), expected)).toEqual({ missing: [], extra: [] });
  });
});

describe('upstream messages', () => {
  it('prints a duplicate selectable field as a Duplicate value', () => {
    const crd = internalCrd((c) => {
      c.spec.validation = {
        openAPIV3Schema: {
          type: 'object',
          properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
        },
      };
      c.spec.selectableFields = [{ jsonPath: '.spec.a' }, { jsonPath: '.spec.a' }];
    });
    expect(unmatched(validateInternalCreate(crd), [duplicate('spec.selectableFields[1].jsonPath')])).toEqual({
      missing: [],
      extra: [],
    });
  });
});
