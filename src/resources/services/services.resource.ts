/** Service (core/v1), stored under upstream's special prefix `services/specs`. */
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';

export const services = defineResource({
  kind: 'Service',
  plural: 'services',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  storagePrefix: 'services/specs',
  subresources: [statusSubresource('Service')],
  strategy: {
    ...keepStatusOnUpdate,
    prepareForCreate(obj) {
      obj.status = { loadBalancer: {} };
    },
  },
});
