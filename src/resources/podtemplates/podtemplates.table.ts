/** `kubectl get podtemplates` columns: NAME CONTAINERS IMAGES POD LABELS. */
import { NAME_COLUMN, column, type TablePrinter } from '../../api/table.js';
import type { PodTemplate } from './podtemplates.schema.js';

export const podTemplatePrinter: TablePrinter<PodTemplate> = {
  columns: [
    NAME_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells: (obj) => [obj.metadata.name, ...templateCells(obj)],
};

function templateCells(obj: PodTemplate): unknown[] {
  const template = obj.template ?? {};
  const containers = template.spec?.containers ?? [];
  const labels =
    Object.entries(template.metadata?.labels ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(',') || '<none>';
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image ?? '').join(','), labels];
}
