/** PodTemplate (core/v1). */
import { podTemplatePrinter } from './podtemplates.table.js';
import { podTemplateSchema } from './podtemplates.schema.js';
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import { defineResource } from '../define.js';
import { podTemplateMessages } from './podtemplates.protobuf.js';
import { validatePodTemplate } from './podtemplate-validation.js';

export const podTemplates = defineResource({
  kind: 'PodTemplate',
  description: 'PodTemplate describes pods to be created from it: their metadata and spec.',
  protobuf: podTemplateMessages,
  plural: 'podtemplates',
  namespaced: true,
  schema: podTemplateSchema,
  printer: podTemplatePrinter,
  strategy: {
    defaults(obj) {
      defaultPodSpec(obj.template?.spec);
    },
    /** Upstream ValidatePodTemplate / ValidatePodTemplateUpdate. */
    validate: validatePodTemplate,
    validateUpdate: (obj) => validatePodTemplate(obj),
  },
});
