/** `kubectl get controllerrevisions` columns (upstream pkg/printers/internalversion printControllerRevision). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ControllerRevision } from './controllerrevisions.schema.js';

/** upstream formatResourceName of the controller: `<kind>.<group>/<name>` lower-cased kind and group, `<none>` without one. */
function controllerOf(obj: ControllerRevision): string {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  const kind = group ? `${ref.kind}.${group}` : ref.kind;
  return `${kind.toLowerCase()}/${ref.name}`;
}

export const controllerRevisionPrinter: TablePrinter<ControllerRevision> = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, controllerOf(obj), obj.revision ?? 0, age(obj, now)],
};
