/** `kubectl get rc` columns (upstream printReplicationController). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ReplicationController } from './replicationcontrollers.schema.js';

export const replicationControllerPrinter: TablePrinter<ReplicationController> = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently oberved number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    AGE_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column('Selector', 'string', 'Selector is a label query over pods that should match the Replicas count.', 1),
  ],
  cells(obj, now) {
    const spec = obj.spec ?? {};
    const status = obj.status ?? {};
    const containers = spec.template?.spec?.containers ?? [];
    return [
      obj.metadata.name,
      spec.replicas ?? 0,
      status.replicas ?? 0,
      status.readyReplicas ?? 0,
      age(obj, now),
      containers.map((c) => c.name).join(','),
      containers.map((c) => c.image ?? '').join(','),
      Object.entries(spec.selector ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    ];
  },
};
