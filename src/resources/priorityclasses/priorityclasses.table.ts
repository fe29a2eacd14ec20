/**
 * `kubectl get priorityclasses` columns (upstream printPriorityClass; the server prints wide,
 * so PREEMPTIONPOLICY shows by default, as kubectl shows it against upstream).
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { PriorityClass } from './priorityclasses.schema.js';

export const priorityClassPrinter: TablePrinter<PriorityClass> = {
  columns: [
    NAME_COLUMN,
    column(
      'Value',
      'integer',
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
    ),
    column(
      'Global-Default',
      'boolean',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
    ),
    AGE_COLUMN,
    column(
      'PreemptionPolicy',
      'string',
      'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
    ),
  ],
  cells: (obj, now) => [
    obj.metadata.name,
    obj.value ?? 0,
    obj.globalDefault ?? false,
    age(obj, now),
    obj.preemptionPolicy ?? '',
  ],
};
