/** PodTemplate (core/v1). */
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import { defineResource } from '../define.js';

export const podTemplates = defineResource({
  kind: 'PodTemplate',
  plural: 'podtemplates',
  namespaced: true,
  strategy: {
    defaults(obj) {
      defaultPodSpec((obj.template as { spec?: unknown } | undefined)?.spec);
    },
  },
});
