/** PodTemplate (core/v1). */
import { defineResource } from '../define.js';

export const podTemplates = defineResource({
  kind: 'PodTemplate',
  plural: 'podtemplates',
  namespaced: true,
});
