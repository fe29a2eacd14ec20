/**
 * CustomResourceDefinition fields of apiextensions.k8s.io/v1beta1 (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1beta1 types.go, 1.33: the 1.10–1.21 served version, with the fields
 * its types gained since). It differs from v1 (customresourcedefinitions.schema.ts) in the
 * spec only: the deprecated `version`; the per-version fields (`validation`, `subresources`,
 * `additionalPrinterColumns`, `selectableFields`) may also sit at the top level; a printer
 * column's path is `JSONPath`; the conversion webhook is `webhookClientConfig` and
 * `conversionReviewVersions` beside `strategy`; `preserveUnknownFields` may be true; `scope` and
 * `versions` are defaulted (v1beta1.defaults.ts). Names, versions' other fields, schemas and
 * status are v1's.
 */
import { z } from 'zod';
import { declared } from '../../api/core/patch-info.js';
import { bool, int, obj, reqObj, reqStr, str } from '../../api/core/schema-kit.js';
import { kindSchema } from '../../api/meta-schema.js';
import type { KindObject } from '../../registry/types.js';
import { customResourceDefinitionSchema } from './customresourcedefinitions.schema.js';

const v1Spec = customResourceDefinitionSchema.shape.spec.shape;
const v1Version = v1Spec.versions.element.shape;
const v1Webhook = v1Spec.conversion.unwrap().unwrap().shape.webhook.unwrap().unwrap().shape;

/** A list that server-side apply replaces whole (`+listType=atomic`). */
const atomicList = <T extends z.ZodType>(item: T) =>
  declared(z.array(item).nullable().optional(), { listType: 'atomic' });

/** CustomResourceColumnDefinition of v1beta1: the path is `JSONPath`. */
const printerColumn = reqObj({
  name: reqStr.describe('A human readable name for the column.'),
  type: reqStr.describe('The OpenAPI type of the column: integer, number, string, boolean or date.'),
  format: str.describe('An optional OpenAPI format of the column (int32, date-time, ...).'),
  description: str.describe('A human readable description of the column.'),
  priority: int.describe('How important the column is: 0 shown by default, greater only with `-o wide`.'),
  JSONPath: reqStr.describe('A simple JSON path evaluated against each custom object to produce the cell.'),
});
const printerColumns = atomicList(printerColumn).describe('Columns of `kubectl get` beyond name and age.');

const version = reqObj({
  ...v1Version,
  additionalPrinterColumns: printerColumns.describe(
    'Columns of `kubectl get` for this version; exclusive with the top-level additionalPrinterColumns.',
  ),
});

export const customResourceDefinitionV1beta1Schema = kindSchema({
  spec: reqObj({
    group: v1Spec.group,
    version: str.describe(
      'Deprecated: the first (or only) version served; defaults to the first of `versions`, which it must match.',
    ),
    names: v1Spec.names,
    scope: str.describe('Cluster or Namespaced; defaults to Namespaced.'),
    validation: v1Version.schema.describe(
      'The schema of every version, when they share one; exclusive with the per-version schemas.',
    ),
    subresources: v1Version.subresources.describe(
      'The subresources of every version, when they share them; exclusive with the per-version ones.',
    ),
    versions: atomicList(version).describe(
      'All the versions, in order of priority; defaults to one served and stored `version`.',
    ),
    additionalPrinterColumns: printerColumns,
    selectableFields: v1Version.selectableFields,
    conversion: obj({
      strategy: reqStr.describe('None (only apiVersion changes) or Webhook (a ConversionReview to a webhook).'),
      webhookClientConfig: v1Webhook.clientConfig,
      conversionReviewVersions: atomicList(z.string()).describe(
        'The ConversionReview versions the webhook accepts, in order of preference; defaults to [v1beta1].',
      ),
    }).describe('How custom objects are converted between versions.'),
    preserveUnknownFields: bool.describe(
      'Whether fields a schema does not name are kept in custom objects (no pruning); defaults to true.',
    ),
  }).describe('What the definition serves.'),
  status: customResourceDefinitionSchema.shape.status,
});

/** A CustomResourceDefinition (v1beta1) as its schema describes it. */
export type CustomResourceDefinitionV1beta1 = KindObject<typeof customResourceDefinitionV1beta1Schema>;
/** Its spec. */
export type CustomResourceDefinitionV1beta1Spec = CustomResourceDefinitionV1beta1['spec'];
/** One version of the spec. */
export type CustomResourceDefinitionV1beta1Version = NonNullable<
  CustomResourceDefinitionV1beta1Spec['versions']
>[number];
/** A printer column of v1beta1 (`JSONPath`). */
export type CustomResourceColumnDefinitionV1beta1 = z.infer<typeof printerColumn>;
