/** PersistentVolume fields, with every volume-source block of the spec. */
import { kindSchema } from '../../api/meta-schema.js';
import { list, obj, objectReference, oneOf, quantityMap, str, strList } from '../../api/core/schema-kit.js';
import { persistentVolumeSources } from '../../api/core/volumes.js';

export const persistentVolumeSchema = kindSchema({
  spec: obj({
    accessModes: list(oneOf(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']).unwrap().unwrap()),
    capacity: quantityMap,
    claimRef: obj(objectReference),
    mountOptions: strList,
    persistentVolumeReclaimPolicy: oneOf(['Recycle', 'Delete', 'Retain']),
    storageClassName: str,
    volumeMode: oneOf(['Block', 'Filesystem']),
    ...persistentVolumeSources,
  }),
  status: obj({ message: str, phase: oneOf(['Pending', 'Available', 'Bound', 'Released', 'Failed']), reason: str }),
});
