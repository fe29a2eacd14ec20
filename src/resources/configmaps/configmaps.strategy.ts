/** ConfigMap strategy (upstream pkg/registry/core/configmap/strategy.go); rules in configmaps.validation.ts. */
import type { Strategy } from '../../registry/types.js';
import type { ConfigMap } from './configmaps.schema.js';
import { validateConfigMap, validateConfigMapUpdate } from './configmaps.validation.js';

export const configMapStrategy: Strategy<ConfigMap> = {
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
};
