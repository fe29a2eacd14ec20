/** `kubectl get serviceaccounts` columns: NAME SECRETS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ServiceAccount } from './serviceaccounts.schema.js';

export const serviceAccountPrinter: TablePrinter<ServiceAccount> = {
  columns: [
    NAME_COLUMN,
    column(
      'Secrets',
      'integer',
      'Secrets is the list of secrets allowed to be used by pods running using this ServiceAccount.',
    ),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, (obj.secrets ?? []).length, age(obj, now)],
};
