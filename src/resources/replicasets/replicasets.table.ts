/**
 * `kubectl get replicasets` columns (upstream pkg/printers/internalversion printReplicaSet):
 * NAME DESIRED CURRENT READY AGE, and with `-o wide` CONTAINERS IMAGES SELECTOR (FormatLabelSelector:
 * `<none>` when empty, `<error>` when it cannot be built).
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import { asSelector, selectorString } from '../apps-common/label-selector.js';
import { containerCells } from '../deployments/deployments.table.js';
import type { ReplicaSet } from './replicasets.schema.js';

function selectorCell(obj: ReplicaSet): string {
  try {
    return selectorString(asSelector(obj.spec?.selector)) || '<none>';
  } catch {
    return '<error>';
  }
}

export const replicaSetPrinter: TablePrinter<ReplicaSet> = {
  columns: [
    NAME_COLUMN,
    column(
      'Desired',
      'integer',
      'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.',
    ),
    column('Current', 'integer', 'Replicas is the most recently oberved number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    AGE_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column(
      'Selector',
      'string',
      'Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set.',
      1,
    ),
  ],
  cells(obj, now) {
    const spec = obj.spec ?? {};
    const [names, images] = containerCells(spec.template?.spec?.containers ?? []);
    return [
      obj.metadata.name,
      spec.replicas ?? 0,
      obj.status?.replicas ?? 0,
      obj.status?.readyReplicas ?? 0,
      age(obj, now),
      names,
      images,
      selectorCell(obj),
    ];
  },
};
