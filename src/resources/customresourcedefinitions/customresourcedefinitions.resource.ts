/**
 * CustomResourceDefinition (apiextensions.k8s.io/v1; k8s.io/apiextensions-apiserver
 * pkg/registry/customresourcedefinition, 1.33): cluster-scoped, short names `crd` and `crds`,
 * category `api-extensions`, with `/status`. Served as JSON (and YAML) only for now: no
 * protobuf messages. The rules are in customresourcedefinitions.strategy.ts and .validation.ts;
 * schema defaults are checked by api/crd-schema (valid, and pruned).
 */
import { schemaHasUnprunedDefaults, validateSchemaDefaults } from '../../api/crd-schema/index.js';
import { defineResource } from '../define.js';
import { deleteDefinition } from '../customresources/definition-delete.js';
import { customResourceDefinitionSchema } from './customresourcedefinitions.schema.js';
import {
  customResourceDefinitionStatus,
  customResourceDefinitionStrategy,
} from './customresourcedefinitions.strategy.js';
import { customResourceDefinitionPrinter } from './customresourcedefinitions.table.js';

export const customResourceDefinitions = defineResource({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  description:
    'CustomResourceDefinition represents a resource that should be exposed on the API server. Its name MUST be in the format <.spec.name>.<.spec.group>.',
  plural: 'customresourcedefinitions',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  schema: customResourceDefinitionSchema,
  printer: customResourceDefinitionPrinter,
  subresources: [customResourceDefinitionStatus],
  strategy: customResourceDefinitionStrategy({
    validate: validateSchemaDefaults,
    hasUnprunedDefaults: schemaHasUnprunedDefaults,
  }),
  // The first delete marks it and adds the cleanup finalizer (controllers/crd-controller.ts empties it).
  deleteHandler: deleteDefinition,
});
