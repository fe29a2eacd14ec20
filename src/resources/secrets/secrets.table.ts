/** `kubectl get secrets` columns: NAME TYPE DATA AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Secret } from './secrets.schema.js';

export const secretPrinter: TablePrinter<Secret> = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'The type of the secret'),
    column('Data', 'integer', 'Number of data entries.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, obj.type ?? 'Opaque', Object.keys(obj.data ?? {}).length, age(obj, now)],
};
