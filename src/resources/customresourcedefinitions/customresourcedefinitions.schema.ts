/**
 * CustomResourceDefinition fields of apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1 types.go, 1.33). Required fields are those upstream's OpenAPI
 * requires; the lists upstream marks `+listType=atomic` (versions, short names, categories,
 * printer columns, selectable fields, review versions, stored versions) are replaced whole by
 * server-side apply; status conditions merge by `type`. A version's `openAPIV3Schema` is a
 * JSONSchemaProps (json-schema-props.ts). `caBundle` is base64 bytes.
 */
import { z } from 'zod';
import { declared } from '../../api/core/patch-info.js';
import { base64, bool, int, obj, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { kindSchema } from '../../api/meta-schema.js';
import type { KindObject } from '../../registry/types.js';
import { jsonSchemaProps } from './json-schema-props.js';

/** A list that server-side apply replaces whole (`+listType=atomic`). */
const atomicList = <T extends z.ZodType>(item: T) =>
  declared(z.array(item).nullable().optional(), { listType: 'atomic' });

/** CustomResourceDefinitionNames (spec.names and status.acceptedNames). */
const names = (required: boolean) =>
  z.strictObject({
    plural: (required ? reqStr : str).describe(
      'The plural name of the resource, lower case: the path segment under /apis/<group>/<version>/.',
    ),
    singular: str.describe('The singular name, lower case; defaults to the lower-cased kind.'),
    shortNames: atomicList(z.string()).describe(
      'Short names kubectl accepts for the resource (`kubectl get <short>`).',
    ),
    kind: (required ? reqStr : str).describe('The serialized kind of the resource, in CamelCase.'),
    listKind: str.describe('The serialized kind of a list of the resource; defaults to `<kind>List`.'),
    categories: atomicList(z.string()).describe(
      'Groupings the resource belongs to, such as `all` (`kubectl get all`).',
    ),
  });

const serviceReference = obj({
  namespace: reqStr.describe('The namespace of the service.'),
  name: reqStr.describe('The name of the service.'),
  path: str.describe('A URL path to which requests are sent.'),
  port: int.describe('The port on the service hosting the webhook; defaults to 443.'),
}).describe('A reference to the service of the webhook.');

const webhookClientConfig = obj({
  url: str.describe('The location of the webhook, `https://host:port/path`; exactly one of url and service.'),
  service: serviceReference,
  caBundle: base64
    .nullable()
    .optional()
    .describe(
      "A PEM-encoded CA bundle to verify the webhook's serving certificate; the system trust roots when absent.",
    ),
}).describe('How to reach the conversion webhook.');

const scale = obj({
  specReplicasPath: reqStr.describe('The JSON path (`.spec.replicas`) of the desired replicas in a custom object.'),
  statusReplicasPath: reqStr.describe('The JSON path (`.status.replicas`) of the observed replicas.'),
  labelSelectorPath: str.describe('The JSON path (`.status.selector`) of the serialized label selector, for HPA.'),
}).describe('The /scale subresource, serving autoscaling/v1 Scale.');

const printerColumn = reqObj({
  name: reqStr.describe('A human readable name for the column.'),
  type: reqStr.describe('The OpenAPI type of the column: integer, number, string, boolean or date.'),
  format: str.describe('An optional OpenAPI format of the column (int32, date-time, ...).'),
  description: str.describe('A human readable description of the column.'),
  priority: int.describe('How important the column is: 0 shown by default, greater only with `-o wide`.'),
  jsonPath: reqStr.describe('A simple JSON path evaluated against each custom object to produce the cell.'),
});

const version = reqObj({
  name: reqStr.describe('The version name (v1, v2beta1, ...), served at /apis/<group>/<version>/.'),
  served: z.boolean().describe('Whether the version is served by the REST API.'),
  storage: z.boolean().describe('Whether custom objects are persisted in this version; exactly one version is.'),
  deprecated: bool.describe('Whether requests to this version receive a warning header.'),
  deprecationWarning: str.describe('The warning returned to clients of a deprecated version.'),
  schema: obj({
    openAPIV3Schema: jsonSchemaProps.optional().describe('The OpenAPI v3 schema of custom objects of this version.'),
  }).describe('The schema used for validation, pruning and defaulting of this version.'),
  subresources: obj({
    status: obj({}).describe(
      'The /status subresource: status writes only through it, and spec changes bump generation.',
    ),
    scale,
  }).describe('The subresources custom objects of this version have.'),
  additionalPrinterColumns: atomicList(printerColumn).describe('Columns of `kubectl get` beyond name and age.'),
  selectableFields: atomicList(
    reqObj({ jsonPath: reqStr.describe('A JSON path to a string, integer or boolean field (`.spec.color`).') }),
  ).describe('Fields usable in field selectors of custom objects (at most 8).'),
});

// Type and status are not enforced on write: upstream's status strategy does not validate
// conditions (its conformance test patches in a condition with a message alone).
const condition = z.strictObject({
  type: str.describe('The type of the condition: Established, NamesAccepted, NonStructuralSchema, ...'),
  status: str.describe('True, False or Unknown.'),
  lastTransitionTime: time.describe('When the condition last changed status.'),
  reason: str.describe("A CamelCase reason for the condition's last transition."),
  message: str.describe('A human-readable explanation of the last transition.'),
});

export const customResourceDefinitionSchema = kindSchema({
  spec: reqObj({
    group: reqStr.describe('The API group of the resources: /apis/<group>/...; must contain a dot.'),
    names: names(true).describe('The names of the resource served.'),
    scope: reqStr.describe('Cluster or Namespaced.'),
    versions: declared(z.array(version), { listType: 'atomic' }).describe('All the versions of the resources.'),
    conversion: obj({
      strategy: reqStr.describe('None (only apiVersion changes) or Webhook (a ConversionReview to a webhook).'),
      webhook: obj({
        clientConfig: webhookClientConfig,
        conversionReviewVersions: declared(z.array(z.string()), { listType: 'atomic' }).describe(
          'The ConversionReview versions the webhook accepts, in order of preference.',
        ),
      }).describe('The webhook of the Webhook strategy.'),
    }).describe('How custom objects are converted between versions.'),
    preserveUnknownFields: bool.describe('Deprecated; must be false in v1 (use x-kubernetes-preserve-unknown-fields).'),
  }).describe('What the definition serves.'),
  status: obj({
    // `+listType=map +listMapKey=type`, without a strategic merge strategy (upstream types.go).
    conditions: declared(z.array(condition).nullable().optional(), { listType: 'map', listMapKeys: ['type'] }).describe(
      'The observed conditions of the definition.',
    ),
    acceptedNames: names(false)
      .nullable()
      .optional()
      .describe('The names actually served (they may differ from spec.names while they conflict).'),
    storedVersions: atomicList(z.string()).describe('The versions custom objects were ever persisted in.'),
  }).describe('The observed state of the definition.'),
});

/** A CustomResourceDefinition (v1) as its schema describes it. */
export type CustomResourceDefinition = KindObject<typeof customResourceDefinitionSchema>;
/** Its spec. */
export type CustomResourceDefinitionSpec = CustomResourceDefinition['spec'];
/** One version of the spec. */
export type CustomResourceDefinitionVersion = CustomResourceDefinitionSpec['versions'][number];
/** Names (spec.names, status.acceptedNames). */
export type CustomResourceDefinitionNames = CustomResourceDefinitionSpec['names'];
/** Its status. */
export type CustomResourceDefinitionStatus = NonNullable<CustomResourceDefinition['status']>;
/** One status condition. */
export type CustomResourceDefinitionCondition = NonNullable<CustomResourceDefinitionStatus['conditions']>[number];
/** A printer column of a version. */
export type CustomResourceColumnDefinition = NonNullable<
  CustomResourceDefinitionVersion['additionalPrinterColumns']
>[number];
/** The subresources of a version. */
export type CustomResourceSubresources = NonNullable<CustomResourceDefinitionVersion['subresources']>;
