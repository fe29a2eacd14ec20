/** `kubectl get configmaps` columns: NAME DATA AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ConfigMap } from './configmaps.schema.js';

export const configMapPrinter: TablePrinter<ConfigMap> = {
  columns: [NAME_COLUMN, column('Data', 'integer', 'Number of data entries.'), AGE_COLUMN],
  cells: (obj, now) => [
    obj.metadata.name,
    Object.keys(obj.data ?? {}).length + Object.keys(obj.binaryData ?? {}).length,
    age(obj, now),
  ],
};
