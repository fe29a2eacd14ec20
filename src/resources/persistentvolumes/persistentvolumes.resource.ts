/** PersistentVolume (core/v1, cluster-scoped) with its status subresource. */
import { persistentVolumePrinter } from './persistentvolumes.table.js';
import { persistentVolumeSchema } from './persistentvolumes.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { persistentVolumeMessages } from './persistentvolumes.protobuf.js';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './persistentvolumes.validation.js';

export const persistentVolumes = defineResource({
  kind: 'PersistentVolume',
  description: 'PersistentVolume is a piece of storage provisioned by an administrator and bound to a claim.',
  protobuf: persistentVolumeMessages,
  plural: 'persistentvolumes',
  namespaced: false,
  schema: persistentVolumeSchema,
  printer: persistentVolumePrinter,
  shortNames: ['pv'],
  subresources: [statusSubresource('PersistentVolume')],
  strategy: {
    ...keepStatusOnUpdate,
    defaults(obj) {
      const spec = (obj.spec ??= {});
      spec.persistentVolumeReclaimPolicy ||= 'Retain';
    },
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
    validate: validatePersistentVolume,
    validateUpdate: validatePersistentVolumeUpdate,
  },
});
