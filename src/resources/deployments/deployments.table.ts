/**
 * `kubectl get deployments` columns (upstream pkg/printers/internalversion printDeployment):
 * NAME READY UP-TO-DATE AVAILABLE AGE, and with `-o wide` CONTAINERS IMAGES SELECTOR. READY is
 * `<readyReplicas>/<spec.replicas>`; the selector is LabelSelectorAsSelector's string
 * (`<invalid>` when it cannot be built).
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import { asSelector, selectorString } from '../apps-common/label-selector.js';
import type { Deployment } from './deployments.schema.js';

/** Upstream layoutContainerCells: names and images, comma-separated. */
export function containerCells(containers: readonly { name: string; image?: string | null }[]): [string, string] {
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image ?? '').join(',')];
}

function selectorCell(obj: Deployment): string {
  try {
    return selectorString(asSelector(obj.spec?.selector));
  } catch {
    return '<invalid>';
  }
}

export const deploymentPrinter: TablePrinter<Deployment> = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column(
      'Up-to-date',
      'string',
      'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    ),
    column(
      'Available',
      'string',
      'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    ),
    AGE_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column(
      'Selector',
      'string',
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
      1,
    ),
  ],
  cells(obj, now) {
    const spec = obj.spec ?? {};
    const status = obj.status ?? {};
    const [names, images] = containerCells(spec.template?.spec?.containers ?? []);
    return [
      obj.metadata.name,
      `${status.readyReplicas ?? 0}/${spec.replicas ?? 0}`,
      status.updatedReplicas ?? 0,
      status.availableReplicas ?? 0,
      age(obj, now),
      names,
      images,
      selectorCell(obj),
    ];
  },
};
