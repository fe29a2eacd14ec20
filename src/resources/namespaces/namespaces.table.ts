/** `kubectl get namespaces` columns: NAME STATUS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';

export const namespacePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, (obj.status as { phase?: string } | undefined)?.phase ?? '', age(obj, now)],
};
