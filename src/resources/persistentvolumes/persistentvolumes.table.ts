/** `kubectl get pv` columns (upstream printPersistentVolume). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { PersistentVolume } from './persistentvolumes.schema.js';

export const persistentVolumePrinter: TablePrinter<PersistentVolume> = {
  columns: [
    NAME_COLUMN,
    column('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity."),
    column('Access Modes', 'string', 'AccessModes contains all ways the volume can be mounted.'),
    column('Reclaim Policy', 'string', 'What happens to a persistent volume when released from its claim.'),
    column('Status', 'string', 'Phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    column(
      'Claim',
      'string',
      'ClaimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
    ),
    column('StorageClass', 'string', 'Name of StorageClass to which this persistent volume belongs.'),
    column('Reason', 'string', 'Reason is a brief CamelCase string that describes any failure.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name ?? '', ...pvCells(obj), age(obj, now)],
};

function pvCells(obj: PersistentVolume): unknown[] {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX' };
  const claim = spec.claimRef ? `${spec.claimRef.namespace}/${spec.claimRef.name}` : '';
  return [
    String(spec.capacity?.storage ?? ''),
    (spec.accessModes ?? []).map((m) => short[m] ?? m).join(','),
    spec.persistentVolumeReclaimPolicy ?? '',
    status.phase ?? '',
    claim,
    spec.storageClassName ?? '',
    status.reason ?? '',
  ];
}
