/** `kubectl get quota` columns: NAME AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, type TablePrinter } from '../../api/table.js';
import type { ResourceQuota } from './resourcequotas.schema.js';

export const resourceQuotaPrinter: TablePrinter<ResourceQuota> = {
  columns: [NAME_COLUMN, AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, age(obj, now)],
};
