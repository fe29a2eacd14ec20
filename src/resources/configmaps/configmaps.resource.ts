/** ConfigMap (core/v1): string key/value configuration data. */
import { configMapPrinter } from './configmaps.table.js';
import { configMapSchema } from './configmaps.schema.js';
import { defineResource } from '../define.js';
import { configMapStrategy } from './configmaps.strategy.js';
import { configMapMessages } from './configmaps.protobuf.js';

export const configMaps = defineResource({
  kind: 'ConfigMap',
  description: 'ConfigMap holds configuration data, string or binary values, for pods to consume.',
  protobuf: configMapMessages,
  plural: 'configmaps',
  namespaced: true,
  schema: configMapSchema,
  printer: configMapPrinter,
  shortNames: ['cm'],
  strategy: configMapStrategy,
});
