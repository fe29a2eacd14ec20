/** `kubectl get quota` columns: NAME AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';

export const resourceQuotaPrinter: TablePrinter = {
  columns: [NAME_COLUMN, AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, age(obj, now)],
};
