/** `kubectl get leases` columns (upstream printLease): NAME HOLDER AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Lease } from './leases.schema.js';

export const leasePrinter: TablePrinter<Lease> = {
  columns: [
    NAME_COLUMN,
    column('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, obj.spec?.holderIdentity ?? '', age(obj, now)],
};
