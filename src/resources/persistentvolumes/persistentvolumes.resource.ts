/** PersistentVolume (core/v1, cluster-scoped) with its status subresource. */
import { persistentVolumeSchema } from './persistentvolumes.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';

export const persistentVolumes = defineResource({
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  namespaced: false,
  schema: persistentVolumeSchema,
  shortNames: ['pv'],
  subresources: [statusSubresource('PersistentVolume')],
  strategy: {
    ...keepStatusOnUpdate,
    defaults(obj) {
      const spec = (obj.spec ??= {}) as { persistentVolumeReclaimPolicy?: string };
      spec.persistentVolumeReclaimPolicy ||= 'Retain';
    },
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
  },
});
