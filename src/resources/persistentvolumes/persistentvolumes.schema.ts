/** PersistentVolume fields, with every volume-source block of the spec. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, list, obj, objectReference, oneOf, quantityMap, str, strList } from '../../api/core/schema-kit.js';
import { persistentVolumeSources } from '../../api/core/volumes.js';

export const persistentVolumeSchema = kindSchema({
  spec: obj({
    accessModes: list(oneOf(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']).unwrap().unwrap()).describe(
      'Ways the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany.',
    ),
    capacity: quantityMap.describe('Size of the volume (capacity.storage).'),
    claimRef: atomic(obj(objectReference)).describe(
      'The claim bound to this volume (both sides of the binding are recorded).',
    ),
    mountOptions: strList.describe('Mount options passed when the volume is mounted; not validated.'),
    persistentVolumeReclaimPolicy: oneOf(['Recycle', 'Delete', 'Retain']).describe(
      'What happens to the volume once its claim is gone: Retain (the default for manually created volumes), Delete or Recycle.',
    ),
    storageClassName: str.describe(
      'Storage class the volume belongs to; it only binds to claims asking for this class.',
    ),
    volumeMode: oneOf(['Block', 'Filesystem']).describe('Filesystem (the default) or Block.'),
    ...persistentVolumeSources,
  }),
  status: obj({ message: str, phase: oneOf(['Pending', 'Available', 'Bound', 'Released', 'Failed']), reason: str }),
});

/** A PersistentVolume as its schema describes it (for its strategy and printer). */
export type PersistentVolume = KindObject<typeof persistentVolumeSchema>;
