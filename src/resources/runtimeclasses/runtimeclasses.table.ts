/** `kubectl get runtimeclasses` columns (upstream printRuntimeClass): NAME HANDLER AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { RuntimeClass } from './runtimeclasses.schema.js';

export const runtimeClassPrinter: TablePrinter<RuntimeClass> = {
  // Upstream describes Handler with ObjectMeta's (absent) "handler" doc: an empty description.
  columns: [NAME_COLUMN, column('Handler', 'string', ''), AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, obj.handler ?? '', age(obj, now)],
};
