/** ResourceQuota (core/v1) with its status subresource. */
import { resourceQuotaPrinter } from './resourcequotas.table.js';
import { resourceQuotaSchema } from './resourcequotas.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { resourceQuotaMessages } from './resourcequotas.protobuf.js';
import { validateResourceQuota, validateResourceQuotaUpdate } from './resourcequotas.validation.js';

export const resourceQuotas = defineResource({
  kind: 'ResourceQuota',
  description: 'ResourceQuota limits the total resources the objects of a namespace may use.',
  protobuf: resourceQuotaMessages,
  plural: 'resourcequotas',
  namespaced: true,
  schema: resourceQuotaSchema,
  printer: resourceQuotaPrinter,
  shortNames: ['quota'],
  subresources: [statusSubresource('ResourceQuota')],
  strategy: { ...keepStatusOnUpdate, validate: validateResourceQuota, validateUpdate: validateResourceQuotaUpdate },
});
