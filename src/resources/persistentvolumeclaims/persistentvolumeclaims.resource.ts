/** PersistentVolumeClaim (core/v1) with its status subresource. */
import { persistentVolumeClaimPrinter } from './persistentvolumeclaims.table.js';
import { persistentVolumeClaimSchema } from './persistentvolumeclaims.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import {
  dropDisabledSpecFields,
  dropDisabledStatusFields,
  enforceDataSourceBackwardsCompatibility,
  normalizeDataSources,
} from './persistentvolumeclaim-fields.js';
import type { PersistentVolumeClaim } from './persistentvolumeclaims.schema.js';
import { persistentVolumeClaimMessages } from './persistentvolumeclaims.protobuf.js';
import {
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
} from './persistentvolumeclaims.validation.js';

const statusBase = statusSubresource<PersistentVolumeClaim>('PersistentVolumeClaim');
/** `/status`: upstream's status strategy also drops the gated-off status fields. */
const pvcStatus: typeof statusBase = {
  ...statusBase,
  merge(requested, old) {
    const merged = statusBase.merge!(requested, old);
    dropDisabledStatusFields(merged, old);
    return merged;
  },
};

export const persistentVolumeClaims = defineResource({
  kind: 'PersistentVolumeClaim',
  description: "PersistentVolumeClaim is a user's request for, and claim to, a persistent volume.",
  protobuf: persistentVolumeClaimMessages,
  plural: 'persistentvolumeclaims',
  namespaced: true,
  schema: persistentVolumeClaimSchema,
  printer: persistentVolumeClaimPrinter,
  shortNames: ['pvc'],
  subresources: [pvcStatus],
  strategy: {
    defaults(obj) {
      // Upstream 1.33 SetDefaults_PersistentVolumeClaim (BlockVolume GA since 1.18).
      (obj.spec ??= {}).volumeMode ??= 'Filesystem';
    },
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
      const spec = (obj.spec ??= {});
      dropDisabledSpecFields(spec, undefined);
      enforceDataSourceBackwardsCompatibility(spec, undefined);
      normalizeDataSources(spec);
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate?.(obj, old);
      const spec = (obj.spec ??= {});
      dropDisabledSpecFields(spec, old.spec ?? undefined);
      enforceDataSourceBackwardsCompatibility(spec, old.spec ?? undefined);
    },
    validate: validatePersistentVolumeClaim,
    validateUpdate: validatePersistentVolumeClaimUpdate,
  },
});
