/** PersistentVolumeClaim (core/v1) with its status subresource. */
import { persistentVolumeClaimPrinter } from './persistentvolumeclaims.table.js';
import { conditionsStatusPatch, kindPatch } from '../../api/core/patch-meta.js';
import { persistentVolumeClaimSchema } from './persistentvolumeclaims.schema.js';
import { isDeepStrictEqual } from 'node:util';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { persistentVolumeClaimMessages } from './persistentvolumeclaims.protobuf.js';

export const persistentVolumeClaims = defineResource({
  kind: 'PersistentVolumeClaim',
  description: "PersistentVolumeClaim is a user's request for, and claim to, a persistent volume.",
  protobuf: persistentVolumeClaimMessages,
  plural: 'persistentvolumeclaims',
  namespaced: true,
  schema: persistentVolumeClaimSchema,
  printer: persistentVolumeClaimPrinter,
  patchMeta: kindPatch({ status: conditionsStatusPatch }),
  shortNames: ['pvc'],
  subresources: [statusSubresource('PersistentVolumeClaim')],
  strategy: {
    ...keepStatusOnUpdate,
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
    /**
     * Once bound, the spec is immutable except resources.requests (upstream
     * ValidatePersistentVolumeClaimUpdate); before that, volumeName may be set once.
     */
    validateUpdate(obj, old) {
      type Pvc = { spec?: Record<string, any>; status?: { phase?: string } };
      const prev = (old as Pvc).spec ?? {};
      const next = (obj as Pvc).spec ?? {};
      const bound = (old as Pvc).status?.phase === 'Bound' || Boolean(prev.volumeName);
      if (!bound) return [];
      const comparable = (s: Record<string, any>) => ({ ...s, resources: { ...(s.resources ?? {}), requests: undefined } });
      if (isDeepStrictEqual(comparable(next), comparable(prev))) return [];
      return [{ reason: 'FieldValueForbidden', field: 'spec', message: 'Forbidden: is immutable after creation except resources.requests for bound claims' }];
    },
  },
});
