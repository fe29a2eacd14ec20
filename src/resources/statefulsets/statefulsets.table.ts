/** `kubectl get statefulsets` columns (upstream pkg/printers/internalversion printStatefulSet). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { StatefulSet } from './statefulsets.schema.js';

type Containers = NonNullable<NonNullable<NonNullable<StatefulSet['spec']>['template']>['spec']>['containers'];

/** The Containers and Images cells of a pod template (upstream layoutContainerCells). */
export function containerCells(containers: Containers | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}

export const CONTAINERS_COLUMN = column('Containers', 'string', 'Names of each container in the template.', 1);
export const IMAGES_COLUMN = column('Images', 'string', 'Images referenced by each container in the template.', 1);

export const statefulSetPrinter: TablePrinter<StatefulSet> = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
  ],
  cells(obj, now) {
    const [names, images] = containerCells(obj.spec?.template?.spec?.containers);
    return [
      obj.metadata.name,
      `${obj.status?.readyReplicas ?? 0}/${obj.spec?.replicas ?? 0}`,
      age(obj, now),
      names,
      images,
    ];
  },
};
