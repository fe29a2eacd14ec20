/** ConfigMap (core/v1): string key/value configuration data. */
import { objectSchema, optionalStringMap } from '../../api/meta-schema.js';
import { defineResource } from '../define.js';
import { configMapStrategy } from './configmaps.strategy.js';

export const configMaps = defineResource({
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
  shortNames: ['cm'],
  strategy: configMapStrategy,
  schema: objectSchema({ data: optionalStringMap, binaryData: optionalStringMap }),
});
