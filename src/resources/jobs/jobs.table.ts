/**
 * `kubectl get jobs` columns as Kubernetes 1.33 prints them (pkg/printers/internalversion
 * printJob): NAME STATUS COMPLETIONS DURATION AGE, and with `-o wide` CONTAINERS IMAGES
 * SELECTOR.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, humanDuration, type TablePrinter } from '../../api/table.js';
import type { Job, JobStatus } from './jobs.schema.js';
import { formatLabelSelector } from './selector.js';

/** hasJobCondition: the first condition of the type decides. */
function hasCondition(conditions: JobStatus['conditions'], type: string): boolean {
  const c = (conditions ?? []).find((x) => x.type === type);
  return c?.status === 'True';
}

/** The STATUS cell: Complete, Failed, Terminating, Suspended, FailureTarget or Running. */
function jobStatus(obj: Job): string {
  const conditions = obj.status?.conditions;
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  if (obj.metadata.deletionTimestamp) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/** The COMPLETIONS cell: `succeeded/completions`, or `succeeded/1 [of parallelism]` without completions. */
function completions(obj: Job): string {
  const succeeded = obj.status?.succeeded ?? 0;
  const spec = obj.spec ?? {};
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = spec.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** The DURATION cell: from startTime to completionTime, or to now while running; empty before it started. */
function duration(obj: Job, now: Date): string {
  const start = obj.status?.startTime ? Date.parse(obj.status.startTime) : NaN;
  if (Number.isNaN(start)) return '';
  const end = obj.status?.completionTime ? Date.parse(obj.status.completionTime) : now.getTime();
  return humanDuration((end - start) / 1000);
}

/** layoutContainerCells: container names and images, comma-separated. */
export function containerCells(containers: readonly { name: string; image?: string | null }[]): [string, string] {
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image ?? '').join(',')];
}

export const jobPrinter: TablePrinter<Job> = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column('Selector', 'string', 'A label query over pods that should match the pod count.', 1),
  ],
  cells(obj, now) {
    const containers = obj.spec?.template?.spec?.containers ?? [];
    return [
      obj.metadata.name,
      jobStatus(obj),
      completions(obj),
      duration(obj, now),
      age(obj, now),
      ...containerCells(containers),
      formatLabelSelector(obj.spec?.selector),
    ];
  },
};
