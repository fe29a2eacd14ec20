/** ConfigMap strategy (upstream pkg/registry/core/configmap/strategy.go); rules in configmaps.validation.ts. */
import type { Strategy } from '../../registry/types.js';
import { validateConfigMap, validateConfigMapUpdate } from './configmaps.validation.js';

export const configMapStrategy: Strategy = {
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
};
