/** ResourceQuota (core/v1) with its status subresource. */
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';

export const resourceQuotas = defineResource({
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  namespaced: true,
  shortNames: ['quota'],
  subresources: [statusSubresource('ResourceQuota')],
  strategy: { ...keepStatusOnUpdate },
});
