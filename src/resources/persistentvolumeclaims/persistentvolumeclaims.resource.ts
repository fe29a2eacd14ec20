/** PersistentVolumeClaim (core/v1) with its status subresource. */
import { persistentVolumeClaimPrinter } from './persistentvolumeclaims.table.js';
import { persistentVolumeClaimSchema } from './persistentvolumeclaims.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { persistentVolumeClaimMessages } from './persistentvolumeclaims.protobuf.js';
import {
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
} from './persistentvolumeclaims.validation.js';

export const persistentVolumeClaims = defineResource({
  kind: 'PersistentVolumeClaim',
  description: "PersistentVolumeClaim is a user's request for, and claim to, a persistent volume.",
  protobuf: persistentVolumeClaimMessages,
  plural: 'persistentvolumeclaims',
  namespaced: true,
  schema: persistentVolumeClaimSchema,
  printer: persistentVolumeClaimPrinter,
  shortNames: ['pvc'],
  subresources: [statusSubresource('PersistentVolumeClaim')],
  strategy: {
    ...keepStatusOnUpdate,
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
    validate: validatePersistentVolumeClaim,
    validateUpdate: validatePersistentVolumeClaimUpdate,
  },
});
