/**
 * CustomResourceDefinition at apiextensions.k8s.io/v1beta1, as upstream served it from 1.7 to
 * 1.21 (k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition; removed in 1.22),
 * over the v1 row's storage: the v1 row with v1beta1's schema, defaults and conversion
 * (v1beta1.conversion.ts) and the rules of a v1beta1 request (v1beta1.validation.ts). What the
 * strategy prepares, the status subresource, printer and deletion are v1's, working on the
 * stored v1 form.
 */
import { schemaHasUnprunedDefaults, validateSchemaDefaults } from '../../api/crd-schema/index.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { customResourceDefinitions } from './customresourcedefinitions.resource.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import { customResourceDefinitionV1beta1Conversion } from './v1beta1.conversion.js';
import { customResourceDefinitionV1beta1Schema } from './v1beta1.schema.js';
import {
  validateCustomResourceDefinitionUpdateV1beta1,
  validateCustomResourceDefinitionV1beta1,
} from './v1beta1.validation.js';
import { patchMetaOf } from '../../api/core/patch-meta.js';

const defaults = { validate: validateSchemaDefaults, hasUnprunedDefaults: schemaHasUnprunedDefaults };

export const customResourceDefinitionsV1beta1: ResourceDefinition<CustomResourceDefinition> = {
  ...customResourceDefinitions,
  version: 'v1beta1',
  schema: customResourceDefinitionV1beta1Schema,
  patchMeta: patchMetaOf(customResourceDefinitionV1beta1Schema),
  conversion: customResourceDefinitionV1beta1Conversion,
  strategy: {
    ...customResourceDefinitions.strategy,
    validate: (obj) => validateCustomResourceDefinitionV1beta1(obj, defaults),
    validateUpdate: (obj, old) => validateCustomResourceDefinitionUpdateV1beta1(obj, old, defaults),
  },
};
