/**
 * PersistentVolume fields, with every volume-source block of the spec and the fields upstream
 * has added up to 1.33 (nodeAffinity, volumeAttributesClassName, lastPhaseTransitionTime).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { obj, objectReference, oneOf, quantityMap, str, strList, time } from '../../api/core/schema-kit.js';
import { persistentVolumeSources } from '../../api/core/volumes.js';
import { accessModes } from '../../api/core/pvc-spec.js';
import { nodeSelector } from '../../api/core/pod-spec-scheduling.js';

export const persistentVolumeSchema = kindSchema({
  spec: obj({
    accessModes: accessModes.describe(
      'Ways the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod.',
    ),
    capacity: quantityMap.describe('Size of the volume (capacity.storage).'),
    // `+structType=granular` (ObjectReference is atomic elsewhere).
    claimRef: obj(objectReference).describe('The claim bound to this volume (both sides of the binding are recorded).'),
    mountOptions: strList.describe('Mount options passed when the volume is mounted; not validated.'),
    nodeAffinity: obj({
      required: nodeSelector.describe('Node requirements that must hold for a node to access the volume.'),
    }).describe('Nodes the volume can be reached from (required for local volumes).'),
    persistentVolumeReclaimPolicy: oneOf(['Recycle', 'Delete', 'Retain']).describe(
      'What happens to the volume once its claim is gone: Retain (the default for manually created volumes), Delete or Recycle.',
    ),
    storageClassName: str.describe(
      'Storage class the volume belongs to; it only binds to claims asking for this class.',
    ),
    volumeAttributesClassName: str.describe(
      'VolumeAttributesClass of the volume (VolumeAttributesClass: off in 1.33, dropped).',
    ),
    volumeMode: oneOf(['Block', 'Filesystem']).describe('Filesystem (the default) or Block.'),
    ...persistentVolumeSources,
  }),
  status: obj({
    lastPhaseTransitionTime: time.describe('When the phase last changed (set by the server on each phase change).'),
    message: str,
    phase: oneOf(['Pending', 'Available', 'Bound', 'Released', 'Failed']),
    reason: str,
  }),
});

/** A PersistentVolume as its schema describes it (for its strategy and printer). */
export type PersistentVolume = KindObject<typeof persistentVolumeSchema>;
