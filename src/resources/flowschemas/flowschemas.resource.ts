/**
 * FlowSchema (flowcontrol.apiserver.k8s.io/v1, the only version upstream 1.33 serves;
 * pkg/registry/flowcontrol/flowschema): cluster-scoped, no short names or categories, with
 * `/status`. Create clears the status and sets generation 1; an update that changes the spec
 * bumps the generation and keeps the stored status; `/status` writes only the status. The
 * mandatory `exempt` and `catch-all` schemas may not change their spec (validation) and are
 * put back when deleted, as the suggested ones are, by controllers/flowcontrol-bootstrap.ts.
 */
import { defineResource } from '../define.js';
import { statusAndGeneration } from '../flowcontrol-common/generation.js';
import { FLOWCONTROL_GROUP } from '../flowcontrol-common/names.js';
import { conditionsStatusSubresource } from '../flowcontrol-common/status.js';
import { defaultFlowSchema } from './flowschemas.defaults.js';
import { flowSchemaMessages } from './flowschemas.protobuf.js';
import { flowSchemaSchema, type FlowSchema } from './flowschemas.schema.js';
import { flowSchemaPrinter } from './flowschemas.table.js';
import { validateFlowSchema, validateFlowSchemaUpdate } from './flowschemas.validation.js';

export const flowSchemas = defineResource({
  group: FLOWCONTROL_GROUP,
  version: 'v1',
  kind: 'FlowSchema',
  description:
    'FlowSchema sorts requests into flows for API Priority and Fairness: the requests it matches go to its priority level, split into flows by its distinguisher.',
  plural: 'flowschemas',
  namespaced: false,
  schema: flowSchemaSchema,
  printer: flowSchemaPrinter,
  protobuf: flowSchemaMessages,
  subresources: [conditionsStatusSubresource<FlowSchema>('FlowSchema')],
  strategy: {
    ...statusAndGeneration,
    defaults: defaultFlowSchema,
    validate: validateFlowSchema,
    validateUpdate: validateFlowSchemaUpdate,
  },
});
