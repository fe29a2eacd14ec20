/** PersistentVolumeClaim (core/v1) with its status subresource. */
import { persistentVolumeClaimSchema } from './persistentvolumeclaims.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';

export const persistentVolumeClaims = defineResource({
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  namespaced: true,
  schema: persistentVolumeClaimSchema,
  shortNames: ['pvc'],
  subresources: [statusSubresource('PersistentVolumeClaim')],
  strategy: {
    ...keepStatusOnUpdate,
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
  },
});
