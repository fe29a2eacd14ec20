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
    defaults(obj) {
      const spec = (obj.spec ??= {});
      spec.persistentVolumeReclaimPolicy ||= 'Retain';
      // Upstream 1.33 SetDefaults_PersistentVolume (BlockVolume GA since 1.18).
      spec.volumeMode ??= 'Filesystem';
    },
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
      // Upstream pvutil.DropDisabledSpecFields: VolumeAttributesClass is off in 1.33.
      if (obj.spec) delete obj.spec.volumeAttributesClassName;
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate?.(obj, old);
      if (obj.spec && (old.spec?.volumeAttributesClassName ?? null) === null) delete obj.spec.volumeAttributesClassName;
    },
    validate: validatePersistentVolume,
    validateUpdate: validatePersistentVolumeUpdate,
  },
});
