/** `kubectl get csinodes` columns (upstream printCSINode): NAME DRIVERS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { CSINode } from './csinodes.schema.js';

export const csiNodePrinter: TablePrinter<CSINode> = {
  columns: [
    NAME_COLUMN,
    column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'),
    AGE_COLUMN,
  ],
  cells: (n, now) => [n.metadata.name, (n.spec?.drivers ?? []).length, age(n, now)],
};
