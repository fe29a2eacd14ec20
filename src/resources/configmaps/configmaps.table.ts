/** `kubectl get configmaps` columns: NAME DATA AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';

export const configMapPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Data', 'integer', 'Number of data entries.'), AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, Object.keys((obj.data ?? {}) as object).length + Object.keys((obj.binaryData ?? {}) as object).length, age(obj, now)],
};
