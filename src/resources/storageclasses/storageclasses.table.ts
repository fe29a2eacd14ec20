/**
 * `kubectl get storageclasses` columns (upstream printStorageClass): NAME PROVISIONER
 * RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE, the name followed by ` (default)`
 * when the class carries the default-class annotation (or its beta form) set to "true".
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { StorageClass } from './storageclasses.schema.js';

const DEFAULT_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

/** storageutil.IsDefaultAnnotation. */
export function isDefaultClass(sc: StorageClass): boolean {
  const annotations = sc.metadata.annotations ?? {};
  return DEFAULT_ANNOTATIONS.some((a) => annotations[a] === 'true');
}

export const storageClassPrinter: TablePrinter<StorageClass> = {
  columns: [
    NAME_COLUMN,
    column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    column(
      'ReclaimPolicy',
      'string',
      'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
    ),
    column(
      'VolumeBindingMode',
      'string',
      'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
    ),
    column(
      'AllowVolumeExpansion',
      'string',
      'allowVolumeExpansion shows whether the storage class allow volume expand.',
    ),
    AGE_COLUMN,
  ],
  cells: (sc, now) => [
    `${sc.metadata.name}${isDefaultClass(sc) ? ' (default)' : ''}`,
    sc.provisioner ?? '',
    sc.reclaimPolicy ?? 'Delete',
    sc.volumeBindingMode ?? 'Immediate',
    sc.allowVolumeExpansion ?? false,
    age(sc, now),
  ],
};
