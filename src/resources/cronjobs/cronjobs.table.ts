/**
 * `kubectl get cronjobs` columns as Kubernetes 1.33 prints them (printCronJob): NAME SCHEDULE
 * TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, and with `-o wide` CONTAINERS IMAGES SELECTOR.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, humanDuration, type TablePrinter } from '../../api/table.js';
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import { formatLabelSelector } from '../jobs/selector.js';
import { containerCells } from '../jobs/jobs.table.js';
import type { CronJob } from './cronjobs.schema.js';

/** printBoolPtr: `<unset>` for none. */
const boolCell = (v: boolean | null | undefined) => (v === undefined || v === null ? '<unset>' : String(v));

export const cronJobPrinter: TablePrinter<CronJob> = {
  columns: [
    NAME_COLUMN,
    column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    column(
      'Timezone',
      'string',
      'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.',
    ),
    column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions.'),
    column('Active', 'integer', 'A list of pointers to currently running jobs.'),
    column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    AGE_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column('Selector', 'string', 'A label query over pods that should match the pod count.', 1),
  ],
  cells(obj, now) {
    const spec = obj.spec ?? {};
    const last = obj.status?.lastScheduleTime ? Date.parse(obj.status.lastScheduleTime) : NaN;
    const jobSpec = spec.jobTemplate?.spec;
    return [
      obj.metadata.name,
      spec.schedule ?? '',
      spec.timeZone ?? '<none>',
      boolCell(spec.suspend),
      (obj.status?.active ?? []).length,
      Number.isNaN(last) ? '<none>' : humanDuration((now.getTime() - last) / 1000),
      age(obj, now),
      ...containerCells(jobSpec?.template?.spec?.containers ?? []),
      formatLabelSelector(jobSpec?.selector),
    ];
  },
};

/** The printer of a version served over batch/v1 storage: its objects printed as stored. */
export function printerThrough(conversion: VersionConversion): TablePrinter {
  return {
    columns: cronJobPrinter.columns,
    cells: (obj: ApiObject, now: Date) => cronJobPrinter.cells(conversion.toStorage(obj) as CronJob, now),
  };
}
