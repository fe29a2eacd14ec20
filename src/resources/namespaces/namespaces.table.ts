/** `kubectl get namespaces` columns: NAME STATUS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Namespace } from './namespaces.schema.js';

export const namespacePrinter: TablePrinter<Namespace> = {
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, obj.status?.phase ?? '', age(obj, now)],
};
