/** `kubectl get poddisruptionbudgets` columns (upstream printers.go printPodDisruptionBudget). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { PodDisruptionBudget } from './poddisruptionbudgets.schema.js';

/** intstr's String(), `N/A` when unset. */
const shown = (v: number | string | null | undefined) => (v === undefined || v === null ? 'N/A' : String(v));

export const podDisruptionBudgetPrinter: TablePrinter<PodDisruptionBudget> = {
  columns: [
    NAME_COLUMN,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [
    obj.metadata.name,
    shown(obj.spec?.minAvailable),
    shown(obj.spec?.maxUnavailable),
    obj.status?.disruptionsAllowed ?? 0,
    age(obj, now),
  ],
};
