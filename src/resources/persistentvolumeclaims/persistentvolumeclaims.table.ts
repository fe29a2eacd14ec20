/** `kubectl get pvc` columns (upstream printPersistentVolumeClaim). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { PersistentVolumeClaim } from './persistentvolumeclaims.schema.js';

export const persistentVolumeClaimPrinter: TablePrinter<PersistentVolumeClaim> = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Phase represents the current phase of PersistentVolumeClaim.'),
    column('Volume', 'string', 'VolumeName is the binding reference to the PersistentVolume backing this claim.'),
    column('Capacity', 'string', 'Capacity represents the actual resources of the underlying volume.'),
    column('Access Modes', 'string', 'AccessModes contains the desired access modes the volume should have.'),
    column('StorageClass', 'string', 'Name of the StorageClass required by the claim.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name ?? '', ...pvcCells(obj), age(obj, now)],
};

function pvcCells(obj: PersistentVolumeClaim): unknown[] {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  // A null accessModes is passed on as it always was (only an absent one gets the default).
  return [
    status.phase ?? '',
    spec.volumeName ?? '',
    String(status.capacity?.storage ?? ''),
    accessModes(status.accessModes as string[] | undefined),
    spec.storageClassName ?? '',
  ];
}

/** RWO / ROX / RWX, as upstream abbreviates access modes. */
export function accessModes(modes: string[] = []): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX' };
  return modes.map((m) => short[m] ?? m).join(',');
}
