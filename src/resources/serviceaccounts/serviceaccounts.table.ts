/** `kubectl get serviceaccounts` columns: NAME SECRETS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';

export const serviceAccountPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Secrets', 'integer', 'Secrets is the list of secrets allowed to be used by pods running using this ServiceAccount.'), AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, ((obj.secrets ?? []) as unknown[]).length, age(obj, now)],
};
